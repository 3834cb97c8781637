#!/usr/bin/env bash
# The HAL contract (<cyg/profile/hal.h>) is checked by the compiler: every architecture HAL
# (one board of each, with the package's own compile line) and the host HAL of the unit
# tests compile against it with every hook in use; a HAL whose hook has another signature,
# or that leaves out a required macro, does not compile, and the compiler names the hook;
# the arc table's layout, what an mcount stub reads, assembles.
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0 fail=0
check() { n=$((n+1)); if eval "$2"; then echo "ok $n - $1"; else echo "not ok $n - $1"; fail=1; fi; }
unset MAKEFLAGS MFLAGS MAKELEVEL CONFIG $(compgen -v | grep '^CYG')
cd "$root" || exit 1

# Every hook of both sides in use: the architecture's (masking, the PC, the level) and a
# board's (the profile timer).
cat > "$tmp/arch_hooks.c" <<'C'
#include <cyg/profile/hal.h>
uintptr_t arch_hooks(uintptr_t pc)
{
    hal_profile_irq_state irq = hal_profile_irq_save();
    uintptr_t r = HAL_PROFILE_PC(pc) + HAL_PROFILE_STACK_LEVEL() + (uintptr_t)hal_profile_in_interrupt();
    hal_profile_irq_restore(irq);
    __profile_hit(pc);
    __profile_mcount(pc, r);
    return r;
}
C
# The contract alone: nothing used, so that only hal.h's declarations can catch a wrong hook.
printf '#include <cyg/profile/hal.h>\n' > "$tmp/contract.c"
cat > "$tmp/board_hooks.c" <<'C'
#include <cyg/profile/hal.h>
int hal_enable_profile_timer(int interval_us) { return interval_us; }
void hal_disable_profile_timer(void) { }
C
cat > "$tmp/stub.S" <<'S'
#include <cyg/profile/hal.h>
        .word PROFILE_ARC_FROM, PROFILE_ARC_SELF, PROFILE_ARC_COUNT, PROFILE_ARC_BYTES
        .word PROFILE_STATE_ARCS, PROFILE_STATE_HOMES, PROFILE_STATE_HASH_MUL, PROFILE_ARC_HASH_MUL
S

# compiles FLAGS... SOURCE: 0 if it compiles without a warning; the compiler's words in $tmp/log.
compiles() { "$@" -Werror -c -o "$tmp/out.o" > "$tmp/log" 2>&1; }

for board in mps2-an385 microbit vexpress-a9 riscv32-virt; do
  make -s BOARD="$board" BUILD="$tmp/build" "$tmp/build/$board/obj/flags" > "$tmp/make.log" 2>&1
  cc=$(cat "$tmp/build/$board/obj/flags" 2>/dev/null)
  arch=$(sed -n 's/^ARCH *:\?= *//p' "boards/$board/board.mk")
  check "$arch HAL ($board): every hook compiles against the contract" \
    '[ -n "$cc" ] && compiles $cc "$tmp/arch_hooks.c" && compiles $cc "$tmp/board_hooks.c" ||
     { cat "$tmp/make.log" "$tmp/log" | head -10; false; }'
  check "$arch HAL ($board): the arc table's layout assembles" \
    'compiles $cc "$tmp/stub.S" || { head -10 "$tmp/log"; false; }'
done

# The host HAL, as the unit tests build it, and copies of it with one thing wrong each.
host_cc="${CC:-cc} -std=gnu11 -Wall -Wextra -Itarget/include"
check "the host HAL (unit tests): every hook compiles against the contract" \
  'compiles $host_cc -Ihal/host/include "$tmp/arch_hooks.c" && compiles $host_cc -Ihal/host/include "$tmp/board_hooks.c" ||
   { head -10 "$tmp/log"; false; }'

# wrong_arch WHAT SED-SCRIPT WORD: a host HAL edited by SED-SCRIPT must not compile with the
# contract alone, and the compiler's message must name WORD.
wrong_arch() {
  local what=$1 word=$3
  rm -rf "$tmp/hal" && mkdir -p "$tmp/hal" && cp -r hal/host/include "$tmp/hal/"
  sed -i "$2" "$tmp/hal/include/cyg/hal/profile_arch.h"
  if cmp -s hal/host/include/cyg/hal/profile_arch.h "$tmp/hal/include/cyg/hal/profile_arch.h"; then
    echo "# $what: the edit changed nothing"
  fi
  check "a HAL with $what fails to compile, naming it" \
    '! cmp -s hal/host/include/cyg/hal/profile_arch.h "$tmp/hal/include/cyg/hal/profile_arch.h" &&
     ! compiles $host_cc -I"$tmp/hal/include" "$tmp/contract.c" && grep -q "$word" "$tmp/log" ||
     { echo "# $what:"; sed "s/^/#   /" "$tmp/log" | head -6; false; }'
}
wrong_arch "hal_profile_irq_save() returning long" \
  's/^static inline hal_profile_irq_state hal_profile_irq_save(void)/static inline long hal_profile_irq_save(void)/' \
  "hal_profile_irq_save"
wrong_arch "hal_profile_irq_restore() taking more arguments" \
  's/^static inline void hal_profile_irq_restore(hal_profile_irq_state s)/static inline void hal_profile_irq_restore(hal_profile_irq_state s, ...)/' \
  "hal_profile_irq_restore"
wrong_arch "hal_profile_in_interrupt() returning unsigned" \
  's/^static inline int hal_profile_in_interrupt(void)/static inline unsigned hal_profile_in_interrupt(void)/' \
  "hal_profile_in_interrupt"
wrong_arch "no HAL_PROFILE_PC" '/^#define HAL_PROFILE_PC/d' "HAL_PROFILE_PC"
wrong_arch "HAL_PROFILE_PC giving a pointer" \
  's/^#define HAL_PROFILE_PC(x) .*/#define HAL_PROFILE_PC(x) ((void *)(x))/' "HAL_PROFILE_PC"
wrong_arch "HAL_PROFILE_STACK_LEVEL giving an int" \
  's/^#define HAL_PROFILE_PC(x) .*/&\n#define HAL_PROFILE_STACK_LEVEL() (-1)/' "HAL_PROFILE_STACK_LEVEL"

# wrong_board WHAT SED-SCRIPT WORD: the board's timer, edited, must not compile.
wrong_board() {
  local what=$1 word=$3
  sed "$2" "$tmp/board_hooks.c" > "$tmp/wrong_board.c"
  check "a board with $what fails to compile, naming it" \
    '! cmp -s "$tmp/board_hooks.c" "$tmp/wrong_board.c" &&
     ! compiles $host_cc -Ihal/host/include "$tmp/wrong_board.c" && grep -q "$word" "$tmp/log" ||
     { echo "# $what:"; sed "s/^/#   /" "$tmp/log" | head -6; false; }'
}
wrong_board "hal_enable_profile_timer(unsigned)" \
  's/^int hal_enable_profile_timer(int interval_us)/int hal_enable_profile_timer(unsigned interval_us)/' \
  "hal_enable_profile_timer"
wrong_board "hal_disable_profile_timer() returning int" \
  's/^void hal_disable_profile_timer(void) { }/int hal_disable_profile_timer(void) { return 0; }/' \
  "hal_disable_profile_timer"
echo "1..$n"
exit $fail
