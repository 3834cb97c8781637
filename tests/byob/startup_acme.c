/* The vendor's startup file: vector table, reset, C runtime. Knows nothing of profiling. */
#include <stdint.h>
#include <string.h>

extern uint32_t _estack[], _sdata[], _edata[], _sidata[], _sbss[], _ebss[];
extern int main(void);
void Reset_Handler(void);
void Default_Handler(void);
void exit(int);

#define WEAK __attribute__((weak, alias("Default_Handler")))
void NMI_Handler(void) WEAK;
void HardFault_Handler(void) WEAK;
void SVC_Handler(void) WEAK;
void PendSV_Handler(void) WEAK;
void SysTick_Handler(void) WEAK;
void TIMER0_IRQHandler(void) WEAK;
void TIMER1_IRQHandler(void) WEAK;

__attribute__((section(".isr_vector"), used)) void (*const g_pfnVectors[16 + 10])(void) = {
    (void (*)(void))_estack, Reset_Handler, NMI_Handler, HardFault_Handler,
    0, 0, 0, 0, 0, 0, 0, SVC_Handler, 0, 0, PendSV_Handler, SysTick_Handler,
    0, 0, 0, 0, 0, 0, 0, 0, TIMER0_IRQHandler, TIMER1_IRQHandler,
};

void Reset_Handler(void)
{
    memcpy(_sdata, _sidata, (size_t)((char *)_edata - (char *)_sdata));
    memset(_sbss, 0, (size_t)((char *)_ebss - (char *)_sbss));
    exit(main());
}

void Default_Handler(void)
{
    for (;;)
        ;
}
