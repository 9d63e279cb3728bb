//! The flying and swimming rules: free movement to the 26 neighbouring cells.
//!
//! An agent with [`Movement::Fly`] or [`Movement::Swim`] that is `height` cells tall and has
//! its lowest body cell (its "feet") at `p` occupies the cells `p, p + Y, ..., p + (height - 1) Y`.
//! These are the rules of the Moving AI 3D voxel benchmark (Brewer and Sturtevant, `SoCS` 2018),
//! extended to tall bodies:
//!
//! 1. **Valid position** ([`body_allowed`]): every body cell is passable (flier) or water
//!    (swimmer: passable and [`TerrainFlags::IN_WATER`]). No floor is needed.
//! 2. **Moves** ([`free_move`]): from a valid position `p` to `p + d` for each of the 26
//!    offsets `d` in [`FREE_DIRECTIONS`] (every component in `-1..=1`, not all zero). A move
//!    is legal only when every cell of the axis-aligned box spanned by the body at `p` and at
//!    `p + d` is allowed: x from `min(p.x, p.x + d.x)` to `max(..)`, the same for z, and y from
//!    `min(p.y, p.y + d.y)` to `max(p.y, p.y + d.y) + height - 1`. So a diagonal move never
//!    cuts an edge or a corner, and a tall body needs head room on the way up.
//! 3. **Costs**: [`MoveCosts::straight`] for a face step (one axis changes),
//!    [`MoveCosts::diagonal`] for an edge step (two axes), [`MoveCosts::corner`] for a corner
//!    step (three axes), plus the world's [`VoxelWorld::extra_cost`] of the target. The
//!    walker's climbing, falling and terrain terms do not apply.
//!
//! Legality is symmetric: a move from `p` to `q` is legal exactly when the move back is.
//!
//! The search uses a fast form of the rules: it reads the 3 x (`height` + 2)
//! x 3 neighbourhood once per expansion through [`VoxelWorld::passable_block`] into one
//! occupancy bitmask and tests each of the 26 moves against a requirement mask computed at
//! compile time. For a body one cell tall the mask is the 3 x 3 x 3 cube, one bit per cell,
//! and a few shifts, ANDs and multiplications apply the box rule to all 26 moves at once
//! (`box_closure`). It gives the same moves as [`free_move`] in the order of
//! [`FREE_DIRECTIONS`].
//!
//! The search then skips the moves from a position `n` that its parent `p` dominates: a
//! target `m` that is `p` or a neighbour of `p`, where the direct move `p -> m` is legal and
//! costs no more than the two steps through `n` (see `dominated_moves` for why that cannot
//! lower the cost of `m`). The box of `p -> m` lies inside the neighbourhood of `n`, so the
//! same occupancy mask decides it (for a one-tall body, by the same closure started from
//! the parent's cell). In open air this leaves 9 of the 26 moves after a face
//! step, 15 after an edge step and 19 after a corner step; the expansions, the costs and the
//! routes are those of the unpruned search.

use glam::IVec3;

use crate::moves::agent::{Agent, MAX_AGENT_SPAN, MoveCosts, Movement};
use crate::moves::{Move, MoveKind};
use crate::world::key::in_key_range;
use crate::world::{MAX_BLOCK_HEIGHT, TerrainFlags, VoxelWorld, block_column};

/// The 26 offsets of a free mover's neighbours, layer by layer: `dy = -1` first, then
/// `dy = 0`, then `dy = 1`, and within a layer by `dx`, then `dz`. Consecutive moves land
/// next to each other, so the search's node table finds them in the page it used last.
pub const FREE_DIRECTIONS: [IVec3; 26] = free_directions();

const fn free_directions() -> [IVec3; 26] {
    let mut out = [IVec3::ZERO; 26];
    let mut i = 0;
    let mut n = 0;
    while n < 27 {
        let d = IVec3::new(n / 3 % 3 - 1, n / 9 - 1, n % 3 - 1);
        if n != 13 {
            out[i] = d;
            i += 1;
        }
        n += 1;
    }
    out
}

/// How many axes the offset `d` changes: 1 (face), 2 (edge) or 3 (corner).
#[inline]
const fn axes(d: IVec3) -> u32 {
    (d.x != 0) as u32 + (d.y != 0) as u32 + (d.z != 0) as u32
}

/// The cost of the step `d` (one of [`FREE_DIRECTIONS`]) before the world's extra cost.
#[inline]
#[must_use]
pub const fn step_cost(costs: &MoveCosts, d: IVec3) -> u32 {
    match axes(d) {
        1 => costs.straight,
        2 => costs.diagonal,
        _ => costs.corner,
    }
}

/// Whether the cell `p` may hold part of the body of a free mover: passable for a flier,
/// passable water for a swimmer. A walker's cells are passable ones.
#[inline]
#[must_use]
pub fn cell_allowed<W: VoxelWorld + ?Sized>(world: &W, movement: Movement, p: IVec3) -> bool {
    world.is_passable(p)
        && (movement != Movement::Swim || world.terrain(p).contains(TerrainFlags::IN_WATER))
}

/// Rule 1: whether a free mover `agent.height` cells tall fits with its lowest cell at `feet`.
#[inline]
#[must_use]
pub fn body_allowed<W: VoxelWorld + ?Sized>(world: &W, agent: &Agent, feet: IVec3) -> bool {
    // Positions outside the key range are never valid (as for walkers), and a body reaching
    // above i32::MAX does not fit: those cells do not exist.
    in_key_range(feet)
        && i64::from(feet.y) + i64::from(agent.height) <= i64::from(i32::MAX) + 1
        && (0..agent.height).all(|dy| {
            cell_allowed(
                world,
                agent.movement,
                IVec3::new(feet.x, feet.y + dy as i32, feet.z),
            )
        })
}

/// Rule 2, cell by cell: the move from the valid position `feet` by the offset `direction`
/// (one of [`FREE_DIRECTIONS`]) with its cost, when every cell of the box spanned by the body
/// at both ends is allowed. `None` for an illegal move or an offset that is not a neighbour.
#[must_use]
pub fn free_move<W: VoxelWorld + ?Sized>(
    world: &W,
    agent: &Agent,
    costs: &MoveCosts,
    feet: IVec3,
    direction: IVec3,
) -> Option<Move> {
    let neighbour =
        direction != IVec3::ZERO && direction.to_array().iter().all(|d| d.unsigned_abs() <= 1);
    // Moves exist only between positions of the key range, for agents Agent::validate
    // accepts: outside those the arithmetic below could leave i32.
    if !neighbour || !in_key_range(feet) || agent.height > MAX_AGENT_SPAN {
        return None;
    }
    box_allowed(world, agent, feet, direction).then(|| {
        let to = feet + direction;
        priced(world, to, direction, step_cost(costs, direction))
    })
}

/// Whether every cell of the box swept by the body of `agent` moving from `feet` by
/// `direction` is allowed (rule 2, cell by cell). `feet` in the key range, `direction` a
/// neighbour offset, the agent valid.
fn box_allowed<W: VoxelWorld + ?Sized>(
    world: &W,
    agent: &Agent,
    feet: IVec3,
    direction: IVec3,
) -> bool {
    let to = feet + direction;
    let low = feet.min(to);
    let high = feet.max(to) + (agent.height as i32 - 1) * IVec3::Y;
    (low.y..=high.y).all(|y| {
        (low.z..=high.z).all(|z| {
            (low.x..=high.x).all(|x| cell_allowed(world, agent.movement, IVec3::new(x, y, z)))
        })
    })
}

#[inline]
fn priced<W: VoxelWorld + ?Sized>(world: &W, to: IVec3, direction: IVec3, step: u32) -> Move {
    Move {
        feet: to,
        direction,
        kind: height_change(direction),
        jump: false,
        cost: step.saturating_add(world.extra_cost(to)),
    }
}

/// A free move's [`MoveKind`]: a climb or a fall of one cell when it changes height.
#[inline]
const fn height_change(direction: IVec3) -> MoveKind {
    match direction.y {
        1 => MoveKind::StepUp(1),
        -1 => MoveKind::Drop(1),
        _ => MoveKind::Walk,
    }
}

/// The tallest body the occupancy bitmask holds: 9 columns of `height + 2` cells in 64 bits.
const MASK_HEIGHT: u32 = 5;
const _: () = assert!(MASK_HEIGHT + 2 <= MAX_BLOCK_HEIGHT);

/// Requirement masks: entry `[height - 1][i]` has a bit set for every cell of the box swept
/// by the move [`FREE_DIRECTIONS`]`[i]` of a body `height` cells tall, in the layout of
/// [`VoxelWorld::passable_block`]: the column at `dx`, `dz` from the feet takes bits
/// `block_column(dx, dz) * (height + 2) ..`, and row `r` of a column is the cell at
/// `feet.y - 1 + r`.
const REQUIREMENTS: [[u64; 26]; MASK_HEIGHT as usize] = requirements();

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
/// [`free_moves_and_occupancy`]). A zero occupancy (a body too tall for the mask) prunes
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

/// Calls `visit` with every legal move of the free mover `agent` from the valid position
/// `feet`, in the order of [`FREE_DIRECTIONS`]: the same moves as [`free_move`], read from
/// one occupancy bitmask of the neighbourhood.
#[inline]
pub(crate) fn for_each_free_move<W: VoxelWorld + ?Sized>(
    world: &W,
    agent: &Agent,
    costs: &MoveCosts,
    feet: IVec3,
    mut visit: impl FnMut(Move),
) {
    let steps = free_step_costs(costs);
    let mut legal = legal_free_moves(world, agent, feet);
    while legal != 0 {
        let i = legal.trailing_zeros() as usize;
        legal &= legal - 1;
        let direction = FREE_DIRECTIONS[i];
        let to = feet + direction;
        visit(Move {
            feet: to,
            direction,
            kind: KINDS[i],
            jump: false,
            cost: free_target_cost(world, steps[i], to),
        });
    }
}

/// The cost of each move of [`FREE_DIRECTIONS`] before the world's extra cost (rule 3), for
/// an engine to look up per move.
#[must_use]
pub(crate) fn free_step_costs(costs: &MoveCosts) -> [u32; 26] {
    std::array::from_fn(|i| step_cost(costs, FREE_DIRECTIONS[i]))
}

/// The cost of a move to `to` whose step costs `step` (see [`free_step_costs`]): the step
/// plus the world's extra cost of the target (rule 3).
#[inline]
#[must_use]
pub(crate) fn free_target_cost<W: VoxelWorld + ?Sized>(world: &W, step: u32, to: IVec3) -> u32 {
    step.saturating_add(world.extra_cost(to))
}

/// The legal moves of the free mover `agent` from the valid position `feet`: bit `i` set
/// when the move [`FREE_DIRECTIONS`]`[i]` is legal (rule 2).
#[inline]
pub(crate) fn legal_free_moves<W: VoxelWorld + ?Sized>(
    world: &W,
    agent: &Agent,
    feet: IVec3,
) -> u32 {
    free_moves_and_occupancy(world, agent, feet).0
}

/// The legal moves of the free mover `agent` from the valid position `feet` (bit `i` set
/// when the move [`FREE_DIRECTIONS`]`[i]` is legal, rule 2) and the occupancy mask they were
/// read from (see [`REQUIREMENTS`]). Bodies up to [`MASK_HEIGHT`] cells tall are read as one
/// occupancy bitmask of the neighbourhood; taller ones cell by cell, with a zero mask.
#[inline]
pub(crate) fn free_moves_and_occupancy<W: VoxelWorld + ?Sized>(
    world: &W,
    agent: &Agent,
    feet: IVec3,
) -> (u32, u64) {
    let height = agent.height;
    if height > MASK_HEIGHT {
        let mut legal = 0u32;
        for (i, &direction) in FREE_DIRECTIONS.iter().enumerate() {
            legal |= u32::from(box_allowed(world, agent, feet, direction)) << i;
        }
        return (legal, 0);
    }
    let occupancy = occupancy_mask(world, agent, feet);
    // All 26 moves without a branch.
    let mut legal = 0u32;
    for (i, &required) in REQUIREMENTS[(height - 1) as usize].iter().enumerate() {
        legal |= u32::from(occupancy & required == required) << i;
    }
    (legal, occupancy)
}

/// The occupancy mask of the neighbourhood of `feet` for the free mover `agent` at most
/// [`MASK_HEIGHT`] cells tall (see [`REQUIREMENTS`]): bit set when the cell may hold part of
/// its body.
#[expect(
    clippy::inline_always,
    reason = "once per free mover's expansion, in the search loop"
)]
#[inline(always)]
pub(crate) fn occupancy_mask<W: VoxelWorld + ?Sized>(world: &W, agent: &Agent, feet: IVec3) -> u64 {
    let span = agent.height + 2;
    let passable = world.passable_block(feet.x, feet.z, feet.y - 1, span);
    if agent.movement == Movement::Swim {
        water_bits(world, feet, span, passable)
    } else {
        passable
    }
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

/// [`free_moves_and_occupancy`] and [`undominated`] at once for a body one cell tall: the
/// legal moves from the neighbourhood of `occupancy` (from [`occupancy_mask`]) less those the
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

/// [`height_change`] of each move of [`FREE_DIRECTIONS`].
const KINDS: [MoveKind; 26] = {
    let mut out = [MoveKind::Walk; 26];
    let mut i = 0;
    while i < 26 {
        out[i] = height_change(FREE_DIRECTIONS[i]);
        i += 1;
    }
    out
};

/// The bits of `passable` (an occupancy mask around `feet`, `span` cells a column, see
/// [`REQUIREMENTS`]) whose cells are water.
fn water_bits<W: VoxelWorld + ?Sized>(world: &W, feet: IVec3, span: u32, passable: u64) -> u64 {
    let mut water = 0u64;
    let mut rest = passable;
    while rest != 0 {
        let bit = rest.trailing_zeros();
        rest &= rest - 1;
        let (column, row) = ((bit / span) as i32, (bit % span) as i32);
        let p = IVec3::new(
            feet.x + column / 3 - 1,
            feet.y - 1 + row,
            feet.z + column % 3 - 1,
        );
        if world.terrain(p).contains(TerrainFlags::IN_WATER) {
            water |= 1 << bit;
        }
    }
    water
}

#[cfg(test)]
mod tests {
    use super::*;

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
