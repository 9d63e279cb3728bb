//! The flying rules as bitmasks: the requirement masks of the 26 moves over one occupancy
//! mask of the neighbourhood, the parent's dominated moves, and the closures that apply the
//! box rule to a one-tall body's whole 3 x 3 x 3 cube at once (see [`super`]).

use glam::IVec3;

use crate::moves::agent::MoveCosts;
use crate::moves::fly::{FREE_DIRECTIONS, step_cost};
use crate::world::{MAX_BLOCK_HEIGHT, block_column};

/// The tallest body the occupancy bitmask holds: 9 columns of `height + 2` cells in 64 bits.
pub(super) const MASK_HEIGHT: u32 = 5;
const _: () = assert!(MASK_HEIGHT + 2 <= MAX_BLOCK_HEIGHT);

/// Requirement masks: entry `[height - 1][i]` has a bit set for every cell of the box swept
/// by the move [`FREE_DIRECTIONS`]`[i]` of a body `height` cells tall, in the layout of
/// [`VoxelWorld::passable_block`](crate::world::VoxelWorld::passable_block): the column at `dx`, `dz` from the feet takes bits
/// `block_column(dx, dz) * (height + 2) ..`, and row `r` of a column is the cell at
/// `feet.y - 1 + r`.
pub(super) const REQUIREMENTS: [[u64; 26]; MASK_HEIGHT as usize] = requirements();

/// The cells of the box swept by a body `height` cells tall moving between the offsets `a`
/// and `b` from the centre of the neighbourhood (every component in `-1..=1`), as bits of the
/// occupancy mask (see [`REQUIREMENTS`]). Rows `1 + a.y ..= a.y + height` hold the body at
/// `a`, so every such box lies inside the mask.
const fn box_mask(height: u32, a: IVec3, b: IVec3) -> u64 {
    let span = height + 2;
    let low = (1 + if a.y < b.y { a.y } else { b.y }) as u32;
    let high = (height as i32 + if a.y > b.y { a.y } else { b.y }) as u32;
    let rows = ((1u64 << (high + 1)) - 1) & !((1u64 << low) - 1);
    let mut mask = 0u64;
    let mut c = 0;
    while c < 9 {
        let (cx, cz) = (c / 3 - 1, c % 3 - 1);
        let x_in = (cx >= a.x || cx >= b.x) && (cx <= a.x || cx <= b.x);
        let z_in = (cz >= a.z || cz >= b.z) && (cz <= a.z || cz <= b.z);
        if x_in && z_in {
            mask |= rows << (block_column(cx, cz) * span);
        }
        c += 1;
    }
    mask
}

const fn requirements() -> [[u64; 26]; MASK_HEIGHT as usize] {
    let mut out = [[0u64; 26]; MASK_HEIGHT as usize];
    let mut h = 1;
    while h <= MASK_HEIGHT {
        let mut i = 0;
        while i < 26 {
            out[(h - 1) as usize][i] = box_mask(h, IVec3::ZERO, FREE_DIRECTIONS[i]);
            i += 1;
        }
        h += 1;
    }
    out
}

/// The arrival code of a position entered by the step `d` (a neighbour offset): its index
/// among the 27 offsets of the 3 x 3 x 3 cube, in the order of [`FREE_DIRECTIONS`];
/// [`NO_ARRIVAL`] (the centre, `d = 0`) for a position with no parent.
#[inline]
#[must_use]
pub(crate) const fn arrival_code(d: IVec3) -> usize {
    (9 * (d.y + 1) + 3 * (d.x + 1) + (d.z + 1)) as usize
}

/// The arrival code of each move of [`FREE_DIRECTIONS`].
pub(crate) const FREE_ARRIVALS: [u8; 26] = {
    let mut out = [0u8; 26];
    let mut i = 0;
    while i < 26 {
        out[i] = arrival_code(FREE_DIRECTIONS[i]) as u8;
        i += 1;
    }
    out
};

/// The arrival code of the start of a search: nothing is pruned there.
pub(crate) const NO_ARRIVAL: usize = 13;

/// The offset of each of the 27 arrival codes (see [`arrival_code`]).
pub(crate) const fn arrival_offset(code: usize) -> IVec3 {
    let n = code as i32;
    IVec3::new(n / 3 % 3 - 1, n / 9 - 1, n % 3 - 1)
}

/// Requirement masks of the parent's moves: entry `[height - 1][a][j]` has a bit set for
/// every cell of the box swept by a body `height` cells tall moving from the parent
/// `n - d` (`d` the offset of arrival code `a`) to the target `n + FREE_DIRECTIONS[j]` of a
/// move from `n`, in the occupancy frame of `n`. Zero where the target is not a neighbour
/// of the parent (or for the start, `a` = [`NO_ARRIVAL`]).
static PARENT_REQUIREMENTS: [[[u64; 26]; 27]; MASK_HEIGHT as usize] = parent_requirements();

#[expect(
    clippy::large_stack_arrays,
    reason = "evaluated at compile time, into a static"
)]
const fn parent_requirements() -> [[[u64; 26]; 27]; MASK_HEIGHT as usize] {
    let mut out = [[[0u64; 26]; 27]; MASK_HEIGHT as usize];
    let mut h = 1;
    while h <= MASK_HEIGHT {
        let mut a = 0;
        while a < 27 {
            let d = arrival_offset(a);
            let mut j = 0;
            while a != NO_ARRIVAL && j < 26 {
                let step = FREE_DIRECTIONS[j];
                if is_near(d, step) {
                    let parent = IVec3::new(-d.x, -d.y, -d.z);
                    out[(h - 1) as usize][a][j] = box_mask(h, parent, step);
                }
                j += 1;
            }
            a += 1;
        }
        h += 1;
    }
    out
}

/// Whether the target of the move `step` from a position entered by `d` is the parent or
/// one of its 26 neighbours: `|d + step|` is at most 1 on every axis.
const fn is_near(d: IVec3, step: IVec3) -> bool {
    let e = IVec3::new(d.x + step.x, d.y + step.y, d.z + step.z);
    e.x.abs() <= 1 && e.y.abs() <= 1 && e.z.abs() <= 1
}

/// For each arrival code `a` (see [`arrival_code`]), the moves `j` from a position `n`
/// entered from its parent `p` by the step `d` that the parent dominates under `costs`: the
/// target `m = n + FREE_DIRECTIONS[j]` is `p` itself or a neighbour of `p` with
/// `step(m - p) <= step(d) + step(FREE_DIRECTIONS[j])`.
///
/// Why a search may skip them when the direct move `p -> m` is legal: `n` holds the cost
/// `g(n) = g(p) + cost(p, n)` it got when `p` was expanded with cost `g(p)` (a node's cost and
/// parent link are set together), and after that same expansion `m` cost at most
/// `g(p) + cost(p, m)`: `p` relaxed `m`, or skipped it because, by this same argument one
/// step back, `p`'s own parent had already given `m` a cost that low. The world's extra
/// cost of `m` is on both sides and that of `n` is not negative, so
/// `g(p) + cost(p, m) <= g(n) + cost(n, m)`: the move from `n` cannot lower the cost of `m`,
/// and skipping it changes nothing. (Costs only fall, so this holds however often `p` or
/// `m` was reached again.) The move back to `p` never helps either.
#[must_use]
pub(crate) fn dominated_moves(costs: &MoveCosts) -> [u32; 27] {
    std::array::from_fn(|a| {
        let d = arrival_offset(a);
        let mut dominated = 0u32;
        for (j, &step) in FREE_DIRECTIONS.iter().enumerate() {
            if a == NO_ARRIVAL || !is_near(d, step) {
                continue;
            }
            let direct = d + step;
            let through = u64::from(step_cost(costs, d)) + u64::from(step_cost(costs, step));
            if direct == IVec3::ZERO || u64::from(step_cost(costs, direct)) <= through {
                dominated |= 1 << j;
            }
        }
        dominated
    })
}

/// `legal` without the moves of `dominated` (from [`dominated_moves`], for the arrival code
/// `arrival`) whose direct move from the parent is legal in `occupancy` (from
/// [`free_moves_and_occupancy`](super::free_moves_and_occupancy)). A zero occupancy (a body too tall for the mask) prunes
/// nothing.
#[inline]
#[must_use]
pub(crate) fn undominated(
    legal: u32,
    occupancy: u64,
    height: u32,
    arrival: usize,
    dominated: u32,
) -> u32 {
    if height > MASK_HEIGHT {
        return legal;
    }
    let required = &PARENT_REQUIREMENTS[(height - 1) as usize][arrival];
    let mut candidates = legal & dominated;
    let mut keep = legal;
    while candidates != 0 {
        let j = candidates.trailing_zeros() as usize;
        candidates &= candidates - 1;
        keep &= !(u32::from(occupancy & required[j] == required[j]) << j);
    }
    keep
}

/// The strides of the axes `y`, `z` and `x` in the occupancy mask of a body one cell tall
/// (see [`REQUIREMENTS`]; 3 cells a column): bit `9 * (dx + 1) + 3 * (dz + 1) + (dy + 1)` is
/// the cell at offset `(dx, dy, dz)` from the feet, the 3 x 3 x 3 cube in base 3.
const CUBE_STRIDES: [u32; 3] = [1, 3, 9];

/// The cells of the cube at the low end (digit 0) of their line along the axis of `stride`.
const fn line_starts(stride: u32) -> u32 {
    let mut out = 0u32;
    let mut n = 0;
    while n < 27 {
        if (n / stride).is_multiple_of(3) {
            out |= 1 << n;
        }
        n += 1;
    }
    out
}

/// The multiplier that copies the low cell of every line along the axis of `stride` (the
/// bits of [`line_starts`]) to all three cells of its line. The copies of different lines
/// fall on different cells, so the product carries nothing.
const fn line_copies(stride: u32) -> u32 {
    1 | 1 << stride | 1 << (2 * stride)
}

/// The box rule on the whole cube at once: bit `c` of the result is set when every cell of
/// the box spanned by the centre and the cell `c` is set in `cube`. Axis by axis, every cell
/// takes the AND of itself and the middle cell of its line (picked to the low cell of the
/// line and copied to all three by one multiplication); after the three axes a cell holds
/// the AND over its whole box.
#[inline]
const fn box_closure(cube: u32) -> u32 {
    let mut out = cube;
    let mut axis = 0;
    while axis < 3 {
        let s = CUBE_STRIDES[axis];
        out &= (out >> s & line_starts(s)) * line_copies(s);
        axis += 1;
    }
    out
}

/// For each slab of the cube at one `dx` (index `dx + 1`) and each of its 512 contents (9
/// bits: column `dz` at `3 * (dz + 1)`, row `dy` at `dy + 1`), the moves whose targets those
/// cells are: the cell at `(dx, dy, dz)` is the move [`FREE_DIRECTIONS`]`[i]` of the same
/// offset, the centre no move.
static SLAB_MOVES: [[u32; 512]; 3] = {
    let mut out = [[0u32; 512]; 3];
    let mut slab = 0;
    while slab < 3 {
        let mut v = 0;
        while v < 512 {
            let mut bit = 0;
            while bit < 9 {
                let d = IVec3::new(slab as i32 - 1, bit % 3 - 1, bit / 3 - 1);
                let code = arrival_code(d);
                if v >> bit & 1 != 0 && code != NO_ARRIVAL {
                    // FREE_DIRECTIONS is the arrival codes without the centre.
                    let i = if code < NO_ARRIVAL { code } else { code - 1 };
                    out[slab][v] |= 1 << i;
                }
                bit += 1;
            }
            v += 1;
        }
        slab += 1;
    }
    out
};

/// The moves whose targets are set in `cube` (the cube layout of [`CUBE_STRIDES`]): bit `i`
/// set when the cell at [`FREE_DIRECTIONS`]`[i]` is; the centre is no move. One table
/// look-up per slab reorders the cells.
#[inline]
fn moves_of_cube(cube: u32) -> u32 {
    SLAB_MOVES[0][(cube & 511) as usize]
        | SLAB_MOVES[1][(cube >> 9 & 511) as usize]
        | SLAB_MOVES[2][(cube >> 18 & 511) as usize]
}

/// Where [`parent_masks_1`] keeps its constants in the 32 words of an arrival code (32, so
/// that the search stores a plain array): per axis (in the order of [`CUBE_STRIDES`]) the
/// shift that brings the parent's cell of a line to the low cell of the line...
const PICK: usize = 0;
/// ... then the cells of the moves the parent dominates.
const DOMINATED: usize = 3;

/// For a body one cell tall and each arrival code, the constants [`free_moves_1`] reads
/// (see [`PICK`]) to find, in one occupancy mask, the moves the parent dominates (`dominated`,
/// from [`dominated_moves`]) whose direct move from the parent is legal.
#[must_use]
pub(crate) fn parent_masks_1(dominated: &[u32; 27]) -> [[u32; 32]; 27] {
    std::array::from_fn(|a| {
        let parent = -arrival_offset(a);
        let mut out = [0u32; 32];
        for (axis, p) in [parent.y, parent.z, parent.x].into_iter().enumerate() {
            let s = CUBE_STRIDES[axis];
            out[PICK + axis] = s * (p + 1) as u32;
        }
        for (j, d) in FREE_DIRECTIONS.iter().enumerate() {
            let near = a != NO_ARRIVAL && is_near(arrival_offset(a), *d);
            if near && dominated[a] & (1 << j) != 0 {
                out[DOMINATED] |= 1 << (3 * block_column(d.x, d.z) + (d.y + 1) as u32);
            }
        }
        out
    })
}

/// [`free_moves_and_occupancy`](super::free_moves_and_occupancy) and [`undominated`] at once for a body one cell tall: the
/// legal moves from the neighbourhood of `occupancy` (from [`occupancy_mask`](super::occupancy_mask)) less those the
/// parent dominates, `parent` being the entry of [`parent_masks_1`] for the arrival code.
///
/// Both are box rules on the whole cube: [`box_closure`] from the centre gives the legal
/// moves, and the same closure from the parent's cell (each cell taking the AND of the
/// parent's cell of its line instead of the middle one) gives the cells the parent reaches
/// directly. That holds for the cells next to the parent, the only targets a parent
/// dominates: on a line through the parent's cell they are that cell and the one beside it,
/// so the parent's cell is the only one between them and the parent.
#[inline]
#[must_use]
pub(crate) fn free_moves_1(occupancy: u32, parent: &[u32; 32]) -> u32 {
    let mut from_parent = occupancy;
    for (axis, &s) in CUBE_STRIDES.iter().enumerate() {
        from_parent &= (from_parent >> parent[PICK + axis] & line_starts(s)) * line_copies(s);
    }
    moves_of_cube(box_closure(occupancy) & !(from_parent & parent[DOMINATED]))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::moves::agent::Agent;
    use crate::moves::fly::{body_allowed, box_allowed, free_moves_and_occupancy, occupancy_mask};

    /// Costs under which a corner step is dearer than a face and an edge step together, so
    /// that the parent dominates fewer moves than at octile costs.
    fn lopsided() -> MoveCosts {
        MoveCosts::octile()
            .with_straight(1)
            .with_diagonal(1)
            .with_corner(3)
    }

    /// [`dominated_moves`] and [`parent_masks_1`] at octile and at [`lopsided`] costs: costs
    /// that dominate many moves, and few.
    fn dominance_tables() -> [([u32; 27], [[u32; 32]; 27]); 2] {
        [MoveCosts::octile(), lopsided()].map(|costs| {
            let dominated = dominated_moves(&costs);
            (dominated, parent_masks_1(&dominated))
        })
    }

    #[test]
    fn directions_are_the_26_offsets_layer_by_layer() {
        let mut seen = std::collections::HashSet::new();
        for d in &FREE_DIRECTIONS {
            assert!(seen.insert(*d));
            assert!(d.abs().max_element() == 1, "{d}");
        }
        assert_eq!(seen.len(), 26);
        assert!(FREE_DIRECTIONS.windows(2).all(|w| w[0].y <= w[1].y));
    }

    #[test]
    fn a_corner_step_needs_the_whole_2x2x2_box_for_a_one_tall_body() {
        let at = |d: IVec3| FREE_DIRECTIONS.iter().position(|e| *e == d).unwrap();
        assert_eq!(REQUIREMENTS[0][at(IVec3::ONE)].count_ones(), 8);
        assert_eq!(REQUIREMENTS[0][at(IVec3::X)].count_ones(), 2);
        assert_eq!(REQUIREMENTS[0][at(IVec3::NEG_Y)].count_ones(), 2);
        // A two-tall body stepping up along an edge sweeps 2 columns of 3 cells.
        let up_edge = FREE_DIRECTIONS
            .iter()
            .position(|d| *d == IVec3::new(1, 1, 0))
            .unwrap();
        assert_eq!(REQUIREMENTS[1][up_edge].count_ones(), 6);
    }

    /// The parent's requirement masks are the box rule, cell by cell: on random
    /// neighbourhoods, for every arrival step `d` and every move `j` whose target is the
    /// parent or its neighbour, the mask test says the parent's direct move is legal exactly
    /// when [`box_allowed`] does (and the target is the parent itself when `d + j` is zero).
    #[test]
    fn parent_requirements_are_the_box_of_the_parents_move() {
        use crate::world::dense::DenseWorld;
        let mut next = crate::testing::xorshift(0x9E37_79B9_7F4A_7C15u64);
        let (mut legal_seen, mut illegal_seen) = (0, 0);
        for round in 0..300 {
            let height = 1 + (round % MASK_HEIGHT as usize) as u32;
            let agent = Agent::flier(height);
            let size = IVec3::new(5, height as i32 + 6, 5);
            let mut world = DenseWorld::new(size).unwrap();
            let percent = 5 + next() % 40;
            for x in 0..size.x {
                for y in 0..size.y {
                    for z in 0..size.z {
                        let blocked = next() % 100 < percent;
                        world.set_blocked(IVec3::new(x, y, z), blocked).unwrap();
                    }
                }
            }
            let n = IVec3::new(2, 3, 2);
            let (_, occupancy) = free_moves_and_occupancy(&world, &agent, n);
            for a in (0..27).filter(|&a| a != NO_ARRIVAL) {
                let d = arrival_offset(a);
                assert_eq!(arrival_code(d), a);
                let parent = n - d;
                for (j, &step) in FREE_DIRECTIONS.iter().enumerate() {
                    let required = PARENT_REQUIREMENTS[(height - 1) as usize][a][j];
                    if !is_near(d, step) {
                        assert_eq!(required, 0);
                        continue;
                    }
                    let by_mask = occupancy & required == required;
                    let direct = d + step;
                    let by_cells = if direct == IVec3::ZERO {
                        body_allowed(&world, &agent, parent)
                    } else {
                        body_allowed(&world, &agent, parent)
                            && box_allowed(&world, &agent, parent, direct)
                    };
                    assert_eq!(
                        by_mask, by_cells,
                        "height {height}, arrival {d}, move {step}"
                    );
                    if by_cells {
                        legal_seen += 1;
                    } else {
                        illegal_seen += 1;
                    }
                }
            }
        }
        assert!(legal_seen > 1000 && illegal_seen > 1000);
    }

    /// The one-tall shortcut gives the moves of the general path: legal moves less the
    /// dominated ones, for every arrival code, on random neighbourhoods and under costs
    /// that dominate many moves or few.
    #[test]
    fn one_tall_moves_are_the_general_ones() {
        use crate::world::dense::DenseWorld;
        let mut next = crate::testing::xorshift(0x2545_F491_4F6C_DD1Du64);
        let agent = Agent::flier(1);
        let tables = dominance_tables();
        let mut kept = 0;
        for _ in 0..300 {
            let mut world = DenseWorld::new(IVec3::new(3, 3, 3)).unwrap();
            let percent = 5 + next() % 50;
            for x in 0..3 {
                for y in 0..3 {
                    for z in 0..3 {
                        let blocked = (x, y, z) != (1, 1, 1) && next() % 100 < percent;
                        world.set_blocked(IVec3::new(x, y, z), blocked).unwrap();
                    }
                }
            }
            let feet = IVec3::ONE;
            let (legal, occupancy) = free_moves_and_occupancy(&world, &agent, feet);
            assert_eq!(
                u64::from(occupancy_mask(&world, &agent, feet) as u32),
                occupancy
            );
            for (dominated, masks) in &tables {
                for a in 0..27 {
                    let general = undominated(legal, occupancy, 1, a, dominated[a]);
                    assert_eq!(
                        free_moves_1(occupancy as u32, &masks[a]),
                        general,
                        "arrival {a}"
                    );
                    kept += general.count_ones();
                }
            }
        }
        assert!(kept > 10_000);
    }

    /// The cube closures of a one-tall body are the requirement masks, on random masks of
    /// every density rather than worlds: the legal moves are the moves whose
    /// [`REQUIREMENTS`] the mask meets, less (for every arrival code, under costs that
    /// dominate many moves or few) those whose parent's requirement the mask meets.
    #[test]
    fn one_tall_closures_are_the_requirement_masks() {
        let mut next = crate::testing::xorshift(0x853C_49E6_748F_EA9Bu64);
        let tables = dominance_tables();
        let (mut legal_seen, mut pruned_seen) = (0u64, 0u64);
        for round in 0..4000u64 {
            // AND-ing or OR-ing a few draws sets from 1/16 to 15/16 of the cells.
            let mut mask = next();
            for _ in 0..round % 4 {
                mask = if round % 8 < 4 {
                    mask | next()
                } else {
                    mask & next()
                };
            }
            let occupancy = (mask & ((1 << 27) - 1)) as u32;
            let by_masks = (0..26).fold(0u32, |legal, i| {
                let required = REQUIREMENTS[0][i];
                legal | u32::from(u64::from(occupancy) & required == required) << i
            });
            assert_eq!(
                moves_of_cube(box_closure(occupancy)),
                by_masks,
                "{occupancy:027b}"
            );
            for (dominated, masks) in &tables {
                for a in 0..27 {
                    let general = undominated(by_masks, occupancy.into(), 1, a, dominated[a]);
                    assert_eq!(
                        free_moves_1(occupancy, &masks[a]),
                        general,
                        "{occupancy:027b}, arrival {a}"
                    );
                    legal_seen += u64::from(by_masks.count_ones());
                    pruned_seen += u64::from((by_masks & !general).count_ones());
                }
            }
        }
        assert!(legal_seen > 100_000 && pruned_seen > 100_000);
    }

    /// Which moves the parent may dominate depends on the costs: every target next to the
    /// parent under octile costs, none but the move back when a corner step costs more than
    /// any two other steps.
    #[test]
    fn dominated_moves_follow_the_triangle_inequality_of_the_costs() {
        let octile = dominated_moves(&MoveCosts::octile());
        let east = arrival_code(IVec3::X);
        // Arriving eastward, the 17 moves that do not go east again end next to the parent.
        assert_eq!(octile[east].count_ones(), 17);
        assert_eq!(octile[arrival_code(IVec3::ONE)].count_ones(), 7);
        assert_eq!(octile[NO_ARRIVAL], 0);
        let dominated = dominated_moves(&lopsided());
        // Arriving by a face step, a face step then leads to an edge step's target (2 >= 1)
        // and an edge step to a corner step's target (2 < 3: not dominated).
        let back = FREE_DIRECTIONS
            .iter()
            .position(|&d| d == -IVec3::X)
            .unwrap();
        let up_corner = FREE_DIRECTIONS
            .iter()
            .position(|&d| d == IVec3::new(0, 1, 1))
            .unwrap();
        let up = FREE_DIRECTIONS.iter().position(|&d| d == IVec3::Y).unwrap();
        assert!(dominated[east] & (1 << back) != 0);
        assert!(dominated[east] & (1 << up) != 0);
        assert!(dominated[east] & (1 << up_corner) == 0);
    }
}
