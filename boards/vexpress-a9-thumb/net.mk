# Network support: vexpress-a9's (LAN9118 at 0x4E000000, GIC interrupt 47).
include boards/vexpress-a9/net.mk
