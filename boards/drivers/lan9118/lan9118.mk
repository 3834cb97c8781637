# The LAN9118 driver and its lwIP interface, for every board that has the chip (file lists;
# rules in the Makefile). A board's net.mk includes this; its board.mk adds LAN9118_CDL to
# BOARD_CDL so that the configuration has the driver's options.
LAN9118_NET_SRCS := boards/drivers/lan9118/lan9118.c boards/drivers/lan9118/lan9118_net.c
LAN9118_NET_INC  := boards/drivers/lan9118/include
LAN9118_CDL      := boards/drivers/lan9118/devs_eth_lan9118.cdl
