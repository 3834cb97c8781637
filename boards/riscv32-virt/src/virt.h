/* What the board's sources share: the parts of board_init() (board.c). */
#ifndef CYGONCE_VIRT_H
#define CYGONCE_VIRT_H

void virt_console_init(void);

#endif
