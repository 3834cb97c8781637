# CMSDK APB peripheral drivers (timers, dual-timer clock, UART) for the boards that have them
# (file lists; the rules are in the Makefile). A board's board.mk includes this and adds
# $(CMSDK_SRCS) to BOARD_SRCS, $(CMSDK_INC) to BOARD_INC; its CDL compiles the same files.
CMSDK_INC  := boards/drivers/cmsdk/include
CMSDK_SRCS := boards/drivers/cmsdk/cmsdk_timer.c boards/drivers/cmsdk/cmsdk_clock.c \
              boards/drivers/cmsdk/cmsdk_uart.c
CMSDK_PROFILE_TIMER_SRCS := boards/drivers/cmsdk/cmsdk_profile_timer.c
