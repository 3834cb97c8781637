#!/usr/bin/env bash
# Every public header of an install tree compiles alone (a translation unit with that one
# #include, the tree's profile.mk flags, -Wall -Wextra -Werror), on a Cortex-M and a RISC-V
# board; and the board API is usable with its own header alone: <cyg/hal/board_api.h>,
# nothing else, gives BOARD_CLOCK_HZ and board_clock_ticks() (the constants are the
# board's <cyg/hal/board.h>, which board_api.h includes).
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
boards=${HEADER_BOARDS:-mps2-an385 riscv32-virt}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0 fail=0
check() { n=$((n+1)); if eval "$2"; then echo "ok $n - $1"; else echo "not ok $n - $1"; fail=1; fi; }

for board in $boards; do
  make -s -C "$root" BOARD="$board" install PREFIX="$tmp/prefix" > "$tmp/install-$board.log" 2>&1
  rc=$?
  check "$board: make install succeeds" '[ $rc -eq 0 ] || { tail -20 "$tmp/install-$board.log"; false; }'
  dir="$tmp/prefix/$board"
  [ -f "$dir/lib/profile.mk" ] || continue
  # The tree's own compiler and flags, as an application gets them.
  flags=$(printf 'include %s/lib/profile.mk\nall:\n\t@echo $(PROFILE_CC) $(PROFILE_OPT) $(PROFILE_CFLAGS)\n' "$dir" |
          make -s -f - all)
  bad="" count=0
  for h in $(cd "$dir/include" && find . -name '*.h' | sed 's|^\./||' | sort); do
    # (an assembler body the HAL's mcount.S includes, not a C header: arm_gnu_mcount_nc.h)
    if grep -q '^[[:space:]]*\.section' "$dir/include/$h"; then
      echo "# $h: assembler, for the HAL's .S files: not compiled as C"
      continue
    fi
    count=$((count+1))
    printf '#include <%s>\n' "$h" > "$tmp/alone.c"
    $flags -Wall -Wextra -Werror -c "$tmp/alone.c" -o "$tmp/alone.o" > "$tmp/alone.log" 2>&1 ||
      { bad="$bad $h"; sed 's/^/#   /' "$tmp/alone.log" | head -5; }
  done
  check "$board: each of the $count installed headers compiles alone" '[ -z "$bad" ] || { echo "# alone, these fail:$bad"; false; }'

  cat > "$tmp/clock.c" <<'C'
#include <cyg/hal/board_api.h>
/* The board API with its own header alone: its constants and its calls. */
unsigned long long ms_since_reset(void)
{
    return board_clock_ticks() / (BOARD_CLOCK_HZ / 1000u);
}
int soft_irq(void) { board_irq_pend(BOARD_SOFT_IRQ); return BOARD_IRQ_COUNT + BOARD_IRQ_PRIO_MAX; }
C
  $flags -Wall -Wextra -Werror -c "$tmp/clock.c" -o "$tmp/clock.o" > "$tmp/clock.log" 2>&1
  rc=$?
  check "$board: <cyg/hal/board_api.h> alone gives BOARD_CLOCK_HZ, BOARD_SOFT_IRQ, board_clock_ticks()" \
    '[ $rc -eq 0 ] || { sed "s/^/#   /" "$tmp/clock.log" | head -8; false; }'
done
echo "1..$n"
exit $fail
