# lwIP and the TFTP daemon (CYGPKG_PROFILE_TFTP). File lists; the rules are in the Makefile.
#
# lwIP is Debian's lwip 2.1.3 source package, fetched by tools/setup into LWIP_DIR (never
# copied into the repository); LWIP_DIR=/path/to/lwip builds against another tree.
#
# A configuration with lwIP (the CDL package CYGPKG_NET_LWIP, cdl/net_lwip.cdl; with it
# CYGPKG_PROFILE_TFTP defaults to on) builds in a directory of its own, like every
# non-default configuration (cdl/cdl.mk), so the default build's objects are never touched:
#   make CYGPKG_NET_LWIP=1 [target]     or CONFIG=file with a line CYGPKG_NET_LWIP = 1
# In it, the package library libprofile.a also carries lwIP (core, IPv4, UDP, Ethernet,
# DHCP), the lwIP port (target/lwip), the daemon (target/src/tftp.c, our own TFTP server on
# lwIP's raw UDP API) and the board's network support (boards/<board>/net.mk): one library to link, the way eCos's
# libtarget.a carries every package of a configuration.

# Is lwIP in this build's configuration? (The one place that decides.)
ifeq ($(origin CYGPKG_NET_LWIP),command line)
NET_LWIP := $(filter 1,$(CYGPKG_NET_LWIP))
else ifneq ($(CONFIG),)
# (a NAME = VALUE line or an ecos.ecc "package" line: the configurator knows)
ifeq ($(shell command -v tclsh),)
$(error CONFIG=$(CONFIG): reading it needs tclsh (Debian's tcl); run `make setup` first)
endif
NET_LWIP := $(if $(call cdl_get,CYGPKG_NET_LWIP),1)
else
NET_LWIP :=
endif
# make arguments that select the TFTP configuration, for targets of other builds that
# need it (tests/qemu/tftp.mk).
TFTP_CONFIG := CYGPKG_NET_LWIP=1

LWIP_PORT_INC := target/lwip/include
LWIP_SRCS := $(addprefix $(LWIP_DIR)/src/, \
    core/init.c core/def.c core/inet_chksum.c core/ip.c core/mem.c core/memp.c \
    core/netif.c core/pbuf.c core/stats.c core/sys.c core/timeouts.c core/udp.c \
    core/ipv4/etharp.c core/ipv4/icmp.c core/ipv4/ip4.c core/ipv4/ip4_addr.c \
    core/ipv4/ip4_frag.c core/ipv4/dhcp.c \
    netif/ethernet.c)

ifeq ($(NET_LWIP),1)
ifeq ($(wildcard boards/$(BOARD)/net.mk),)
$(error CYGPKG_NET_LWIP=1: board $(BOARD) has no network support (boards/$(BOARD)/net.mk))
endif
include boards/$(BOARD)/net.mk
PROFILE_SRCS += target/src/tftp.c $(LWIP_SRCS) $(BOARD_NET_SRCS)
PROFILE_INC  += $(LWIP_PORT_INC) $(LWIP_DIR)/src/include $(BOARD_NET_INC)
# (tests/qemu/tftp.mk makes lwIP's sources wait for `make setup`, which fetches them.)
endif
