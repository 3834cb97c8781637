# Network support for vexpress-a9 (LAN9118 at 0x4E000000, GIC interrupt 47): part of the
# package library of configurations with lwIP (CYGPKG_NET_LWIP=1), see target/lwip.mk.
include boards/drivers/lan9118/lan9118.mk
BOARD_NET_SRCS := $(LAN9118_NET_SRCS)
BOARD_NET_INC  := $(LAN9118_NET_INC)
# In QEMU the LAN9118 is on the first -nic: user-mode networking with the TFTP port forwarded,
#   boards/vexpress-a9/run-qemu app.elf -nic user,model=lan9118,hostfwd=udp:127.0.0.1:6969-10.0.2.15:69
