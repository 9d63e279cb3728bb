//! The slot tables of the graph's moves and the dominated detours a search skips.

use crate::graph::{CODE_BITS, CODE_MASK, Pricing, SLOT_DIRECTIONS, SLOT_UP, SLOTS};

/// The slot of each bit of a moves word (padded to 64).
pub(super) const SLOT_OF_BIT: [u8; 64] = slot_of_bits();

const fn slot_of_bits() -> [u8; 64] {
    let mut slots = [0; 64];
    let mut bit = 0;
    while bit < 64 {
        slots[bit] = (bit as u32 / CODE_BITS) as u8;
        bit += 1;
    }
    slots
}

/// Per slot (padded to 16), the slot of the opposite direction.
pub(super) const OPPOSITE_SLOT: [usize; 16] = opposite_slots();

/// The horizontal slot of each direction `(dx, dz)`, at `(dx + 1) * 3 + dz + 1`; `None` for
/// no move.
pub(super) const HORIZONTAL_SLOT: [Option<usize>; 9] = horizontal_slots();

const fn horizontal_slots() -> [Option<usize>; 9] {
    let mut slots = [None; 9];
    let mut slot = 0;
    while slot < SLOT_UP {
        let d = SLOT_DIRECTIONS[slot];
        slots[((d.x + 1) * 3 + d.z + 1) as usize] = Some(slot);
        slot += 1;
    }
    slots
}

/// Per horizontal arrival slot `a`, its detours: a horizontal slot `b` of a next move and the
/// slot `c` of the single step from the parent to the same column (the direction of `c` is
/// the sum of `a`'s and `b`'s, one of the 8), as `b`'s and `c`'s bit offsets in a moves word
/// and the [`DetourTable`] offset of their class. A straight arrival has 4 detours, a
/// diagonal one 2; then comes the move back (`b` opposite to `a`, class [`BACK`]), whose `c`
/// is the unused top bits of a moves word, code 0: the parent itself. The rest is padding.
const DETOURS: [[Detour; 5]; 8] = detours();

/// The [`DetourTable`] class of the move back to the parent.
const BACK: usize = 3;

/// The bit offset past the last slot of a moves word: its bits are always 0.
const NO_SLOT_BITS: u32 = SLOTS as u32 * CODE_BITS;

/// One entry of [`DETOURS`].
#[derive(Debug, Clone, Copy)]
struct Detour {
    /// Bit offset of slot `b` in a moves word.
    b: u32,
    /// Bit offset of slot `c`.
    c: u32,
    /// `class << 12`: the offset of the class's sets in [`DetourTable::sets`].
    class: usize,
}

const fn detours() -> [[Detour; 5]; 8] {
    let pad = Detour {
        b: 0,
        c: NO_SLOT_BITS,
        class: 0,
    };
    let mut table = [[pad; 5]; 8];
    let mut a = 0;
    while a < SLOT_UP {
        let (mut b, mut count) = (0, 0);
        while b < SLOT_UP {
            let (da, db) = (SLOT_DIRECTIONS[a], SLOT_DIRECTIONS[b]);
            let (x, z) = (da.x + db.x, da.z + db.z);
            if x.abs() <= 1
                && z.abs() <= 1
                && (x != 0 || z != 0)
                && let Some(c) = HORIZONTAL_SLOT[((x + 1) * 3 + z + 1) as usize]
            {
                // Straight then straight makes a diagonal, otherwise a straight step.
                let class = if a >= 4 {
                    2
                } else if b >= 4 {
                    1
                } else {
                    0
                };
                table[a][count] = Detour {
                    b: b as u32 * CODE_BITS,
                    c: c as u32 * CODE_BITS,
                    class: class << (2 * CODE_BITS),
                };
                count += 1;
            }
            b += 1;
        }
        table[a][count] = Detour {
            b: OPPOSITE_SLOT[a] as u32 * CODE_BITS,
            c: NO_SLOT_BITS,
            class: BACK << (2 * CODE_BITS),
        };
        a += 1;
    }
    table
}

/// Representative slots of the [`DETOURS`] classes: (arrival, next move, direct step) as
/// straight (0) or diagonal (4) slots. A base price depends on its slot only through whether
/// it is straight or diagonal (see `base_cost`).
const CLASS_SLOTS: [(usize, usize, usize); 3] = [(0, 0, 4), (0, 4, 0), (4, 0, 0)];

/// For each detour class and pair of codes `(code_a, code_b)` of the arrival and the next
/// move, the set of codes (bit `code_c`) of a direct step from the parent that dominates the
/// detour: rising `rise(a) + rise(b)` at a base price of at most `base(a) + base(b)`; and in
/// class [`BACK`], bit 0 (the parent itself) when `b` falls `rise(a)`, back onto the parent.
/// Built from the pricing, so a search tests a detour with one load and one bit.
#[derive(Debug, Clone, Default)]
pub(super) struct DetourTable {
    /// `sets[(class * 64 + code_a) * 64 + code_b]`; code 0 (no move) is in no set but
    /// [`BACK`]'s, and the sets of a `code_b` of 0 are empty.
    sets: Vec<u64>,
}

impl DetourTable {
    const CODES: usize = 1 << CODE_BITS;
    /// The 3 classes of [`CLASS_SLOTS`] and [`BACK`]: a masked index needs no bounds check.
    const ENTRIES: usize = 4 * Self::CODES * Self::CODES;

    pub(super) fn new(pricing: &Pricing, codes: usize) -> Self {
        let mut sets = vec![0u64; Self::ENTRIES];
        for (class, &(sa, sb, sc)) in CLASS_SLOTS.iter().enumerate() {
            for code_a in 1..=codes as u64 {
                let a = pricing.step(sa, code_a);
                for code_b in 1..=codes as u64 {
                    let b = pricing.step(sb, code_b);
                    let mut set = 0;
                    for code_c in 1..=codes as u64 {
                        let c = pricing.step(sc, code_c);
                        if c.dy == a.dy + b.dy
                            && u64::from(c.base) <= u64::from(a.base) + u64::from(b.base)
                        {
                            set |= 1 << code_c;
                        }
                    }
                    sets[(class * Self::CODES + code_a as usize) * Self::CODES + code_b as usize] =
                        set;
                }
            }
        }
        // A rise belongs to the shape, whatever the slot.
        for code_a in 1..=codes as u64 {
            for code_b in 1..=codes as u64 {
                if pricing.step(0, code_b).dy == -pricing.step(0, code_a).dy {
                    sets[(BACK * Self::CODES + code_a as usize) * Self::CODES + code_b as usize] =
                        1;
                }
            }
        }
        Self { sets }
    }

    /// The moves of `word` (the moves of a node `n`) that `n`'s parent `p` dominates, as a
    /// mask of their codes' bits: `arrival` is the horizontal move `a` (slot and code) that
    /// reached `n` from `p`, with `p`'s moves word. A horizontal move `b` from `n` to `m` is
    /// dominated when `p` has a move in the slot of `dir(a) + dir(b)` rising
    /// `rise(a) + rise(b)` (so it lands on `m` itself) at a base price of at most
    /// `base(a) + base(b)`: both routes pay `m`'s terms, the route through `n` pays `n`'s on
    /// top, so `g(p) + cost(p, m) <= g(n) + cost(n, m)`. `p`, expanded when it set `n`'s
    /// record at `g(p) + cost(a)`, relaxed `m` then (or dropped the move, `m` being its own
    /// parent or dominated in turn, reached cheaper still), and records only get cheaper:
    /// the move through `n` would fail the relaxation test anyway, so skipping it changes
    /// nothing the search does (the same expansions, pushes and partial routes), only spares
    /// the lookup of `m`. The move back from `n` to `p` itself is in the mask too: it never
    /// improves `p`, whose `g` can only have dropped since `n`'s was set from it.
    #[expect(
        clippy::inline_always,
        reason = "left out of line by the compiler, it cost 0.8% more instructions per expansion on the terrain queries of `benches/graph.rs`"
    )]
    #[inline(always)]
    pub(super) fn dominated(&self, word: u64, (a, code_a, parent_word): (usize, u64, u64)) -> u64 {
        // One copy per arrival slot: constant shifts, and only the slot's own detours.
        match a {
            0 => self.dominated_from::<0, 5>(word, code_a, parent_word),
            1 => self.dominated_from::<1, 5>(word, code_a, parent_word),
            2 => self.dominated_from::<2, 5>(word, code_a, parent_word),
            3 => self.dominated_from::<3, 5>(word, code_a, parent_word),
            4 => self.dominated_from::<4, 3>(word, code_a, parent_word),
            5 => self.dominated_from::<5, 3>(word, code_a, parent_word),
            6 => self.dominated_from::<6, 3>(word, code_a, parent_word),
            _ => self.dominated_from::<7, 3>(word, code_a, parent_word),
        }
    }

    /// [`DetourTable::dominated`] for the arrival slot `A`, which has `N` detours.
    #[inline]
    fn dominated_from<const A: usize, const N: usize>(
        &self,
        word: u64,
        code_a: u64,
        parent_word: u64,
    ) -> u64 {
        let row = (code_a as usize) << CODE_BITS;
        let mut mask = 0;
        let mut i = 0;
        while i < N {
            let detour = DETOURS[A][i];
            let code_b = (word >> detour.b) & CODE_MASK;
            let code_c = (parent_word >> detour.c) & CODE_MASK;
            let set = self.sets[(detour.class | row | code_b as usize) & (Self::ENTRIES - 1)];
            mask |= ((set >> code_c) & 1) * (CODE_MASK << detour.b);
            i += 1;
        }
        mask
    }
}

const fn opposite_slots() -> [usize; 16] {
    let mut opposite = [0; 16];
    let mut slot = 0;
    while slot < SLOTS {
        let d = SLOT_DIRECTIONS[slot];
        let mut other = 0;
        while other < SLOTS {
            let e = SLOT_DIRECTIONS[other];
            if e.x == -d.x && e.y == -d.y && e.z == -d.z {
                opposite[slot] = other;
            }
            other += 1;
        }
        slot += 1;
    }
    opposite
}
