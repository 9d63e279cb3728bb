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
use crate::world::{TerrainFlags, VoxelWorld};

mod masks;

pub(crate) use masks::{
    FREE_ARRIVALS, NO_ARRIVAL, arrival_offset, dominated_moves, free_moves_1, parent_masks_1,
    undominated,
};
use masks::{MASK_HEIGHT, REQUIREMENTS};
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

/// Rule 1: whether a free mover `agent.height` cells tall (and `agent.width` wide, see
/// [`crate::moves::wide`]) fits with its lowest cell at `feet`.
#[inline]
#[must_use]
pub fn body_allowed<W: VoxelWorld + ?Sized>(world: &W, agent: &Agent, feet: IVec3) -> bool {
    by_width!(world, agent, false, |world, agent| body_allowed_narrow(
        world, agent, feet
    ))
}

/// [`body_allowed`] for an agent one block wide.
#[inline]
pub(crate) fn body_allowed_narrow<W: VoxelWorld + ?Sized>(
    world: &W,
    agent: &Agent,
    feet: IVec3,
) -> bool {
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
/// A body wider than one block takes the box rule in the world's
/// [`BoxView`](crate::moves::BoxView).
#[must_use]
pub fn free_move<W: VoxelWorld + ?Sized>(
    world: &W,
    agent: &Agent,
    costs: &MoveCosts,
    feet: IVec3,
    direction: IVec3,
) -> Option<Move> {
    by_width!(world, agent, None, |world, agent| free_move_narrow(
        world, agent, costs, feet, direction
    ))
}

/// [`free_move`] for an agent one block wide.
fn free_move_narrow<W: VoxelWorld + ?Sized>(
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
pub(super) fn box_allowed<W: VoxelWorld + ?Sized>(
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
pub(super) const fn height_change(direction: IVec3) -> MoveKind {
    match direction.y {
        1 => MoveKind::StepUp(1),
        -1 => MoveKind::Drop(1),
        _ => MoveKind::Walk,
    }
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
    free_moves_and_occupancy_narrow(world, agent, feet).0
}

/// The legal moves of the free mover `agent` from the valid position `feet` (bit `i` set
/// when the move [`FREE_DIRECTIONS`]`[i]` is legal, rule 2) and the occupancy mask they were
/// read from (see [`REQUIREMENTS`]). Bodies up to [`MASK_HEIGHT`] cells tall are read as one
/// occupancy bitmask of the neighbourhood; taller ones cell by cell, with a zero mask. A
/// body wider than one block reads the world's [`BoxView`](crate::moves::BoxView).
#[inline]
pub(crate) fn free_moves_and_occupancy<W: VoxelWorld + ?Sized>(
    world: &W,
    agent: &Agent,
    feet: IVec3,
) -> (u32, u64) {
    by_width!(world, agent, (0, 0), |world, agent| {
        free_moves_and_occupancy_narrow(world, agent, feet)
    })
}

/// [`free_moves_and_occupancy`] for an agent one block wide.
#[inline]
fn free_moves_and_occupancy_narrow<W: VoxelWorld + ?Sized>(
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
    let occupancy = occupancy_mask_narrow(world, agent, feet);
    // All 26 moves without a branch.
    let mut legal = 0u32;
    for (i, &required) in REQUIREMENTS[(height - 1) as usize].iter().enumerate() {
        legal |= u32::from(occupancy & required == required) << i;
    }
    (legal, occupancy)
}

/// The occupancy mask of the neighbourhood of `feet` for the free mover `agent` at most
/// [`MASK_HEIGHT`] cells tall (see [`REQUIREMENTS`]): bit set when the cell may hold part of
/// its body. A body wider than one block reads the world's
/// [`BoxView`](crate::moves::BoxView).
#[expect(
    clippy::inline_always,
    reason = "once per free mover's expansion, in the search loop"
)]
#[inline(always)]
pub(crate) fn occupancy_mask<W: VoxelWorld + ?Sized>(world: &W, agent: &Agent, feet: IVec3) -> u64 {
    if agent.width == 1 {
        return occupancy_mask_narrow(world, agent, feet);
    }
    by_width!(world, agent, 0, |world, agent| occupancy_mask_narrow(
        world, agent, feet
    ))
}

/// [`occupancy_mask`] for an agent one block wide.
#[expect(
    clippy::inline_always,
    reason = "once per free mover's expansion, in the search loop"
)]
#[inline(always)]
fn occupancy_mask_narrow<W: VoxelWorld + ?Sized>(world: &W, agent: &Agent, feet: IVec3) -> u64 {
    let span = agent.height + 2;
    let passable = world.passable_block(feet.x, feet.z, feet.y - 1, span);
    if agent.movement == Movement::Swim {
        water_bits(world, feet, span, passable)
    } else {
        passable
    }
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
