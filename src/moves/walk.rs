//! Rules 1-7 of [`crate::moves`] cell by cell: the one statement of a walking move that the
//! column fast path ([`super::columns`]) must agree with, and the pricing of every move.

use glam::IVec3;

use crate::moves::agent::{Agent, MAX_AGENT_SPAN, MoveCosts};
use crate::moves::water::{enterable, is_swimming_position, position_terrain, swimmer_drop_depth};
use crate::moves::{Move, MoveKind};
use crate::world::key::in_key_range;
use crate::world::{FULL_BLOCK, TerrainFlags, VoxelWorld, body_fits, is_valid_feet};

/// Rule 6: the largest rise (and fall) of the floor, in sixteenths of a block, that a walker
/// takes without jumping (or falling): Minecraft's step height is 0.6 block, 9.6 sixteenths.
pub const STEP_RISE: i64 = 9;

/// Rule 6: how much higher than `max_step_up` whole blocks a jump reaches, in sixteenths: a
/// Minecraft jump clears 1.25 blocks, 4 sixteenths above one block.
pub const JUMP_EXTRA: i64 = 4;

/// Sixteenths in a block.
const BLOCK: i64 = FULL_BLOCK as i64;

/// The terrain terms of a move whose target has `terrain`: `water`, `swim`, `slow_floor`,
/// `danger`, `door` and `cobweb` from `costs` for each flag that is set; 0 for
/// [`TerrainFlags::PLAIN`].
#[inline]
#[must_use]
pub fn terrain_cost(terrain: TerrainFlags, costs: &MoveCosts) -> u32 {
    if terrain.is_plain() {
        return 0;
    }
    let mut cost = 0u32;
    if terrain.contains(TerrainFlags::IN_WATER) {
        cost = cost.saturating_add(costs.water);
    }
    if terrain.contains(TerrainFlags::SWIMMING) {
        cost = cost.saturating_add(costs.swim);
    }
    if terrain.contains(TerrainFlags::ON_SLOW_FLOOR) {
        cost = cost.saturating_add(costs.slow_floor);
    }
    if terrain.contains(TerrainFlags::NEAR_DANGER) {
        cost = cost.saturating_add(costs.danger);
    }
    if terrain.contains(TerrainFlags::IN_DOOR) {
        cost = cost.saturating_add(costs.door);
    }
    if terrain.contains(TerrainFlags::IN_COBWEB) {
        cost = cost.saturating_add(costs.cobweb);
    }
    cost
}

/// Rule 6: how far the floor rises, in sixteenths of a block, from the feet position `from`
/// to the feet position `to`: `16 * (to.y - from.y) + floor_top(to - Y) - floor_top(from - Y)`,
/// negative for a fall.
#[inline]
#[must_use]
pub fn floor_rise<W: VoxelWorld + ?Sized>(world: &W, from: IVec3, to: IVec3) -> i64 {
    // In 64 bits, and a floor below i32::MIN (which does not exist) counts as a full block,
    // so that no position overflows.
    let top = |p: IVec3| {
        p.y.checked_sub(1)
            .map_or(FULL_BLOCK, |y| world.floor_top(IVec3::new(p.x, y, p.z)))
    };
    BLOCK * (i64::from(to.y) - i64::from(from.y)) + i64::from(top(to)) - i64::from(top(from))
}

/// Rule 6: whether `agent` may make a move whose floor rises by `rise` sixteenths (falls by
/// `-rise` when negative), and if so whether it needs a jump: `Some(false)` for a rise or fall
/// of at most [`STEP_RISE`], `Some(true)` for a higher rise up to
/// `16 * max_step_up + JUMP_EXTRA`, `Some(false)` for a deeper fall up to `16 * max_drop`;
/// `None` otherwise.
#[inline]
#[must_use]
pub fn rise_allowed(agent: &Agent, rise: i64) -> Option<bool> {
    if rise > STEP_RISE {
        (rise <= BLOCK * i64::from(agent.max_step_up) + JUMP_EXTRA).then_some(true)
    } else if -rise > STEP_RISE {
        (-rise <= BLOCK * i64::from(agent.max_drop)).then_some(false)
    } else {
        Some(false)
    }
}

/// Level walk: the body fits at `target` and the cell below it is standable.
#[inline]
#[must_use]
pub fn level_walk<W: VoxelWorld + ?Sized>(world: &W, target: IVec3) -> bool {
    in_key_range(target) && world.is_standable(target - IVec3::Y)
}

/// Drop: with the body fitting at `top` but no floor below it, the depth `k` of the first
/// (highest) valid feet position `top - k * Y` with `1 <= k <= max_drop`, falling only through
/// passable cells; `None` when the fall is longer or lands nowhere.
#[inline]
#[must_use]
pub fn drop_depth<W: VoxelWorld + ?Sized>(world: &W, top: IVec3, max_drop: u32) -> Option<u32> {
    if !in_key_range(top) || max_drop > MAX_AGENT_SPAN {
        return None;
    }
    let mut feet = top;
    for k in 1..=max_drop {
        feet.y -= 1;
        if !world.is_passable(feet) {
            return None;
        }
        if world.is_standable(feet - IVec3::Y) {
            return Some(k);
        }
    }
    None
}

/// Whether `feet` is a valid position for the walking agent `agent`: a valid feet position,
/// or for an agent that swims, a swimming position with room for the body.
#[inline]
pub(super) fn valid_walker_position<W: VoxelWorld + ?Sized>(
    world: &W,
    agent: &Agent,
    feet: IVec3,
) -> bool {
    if agent.swims_at_surface() {
        agent.is_valid_position_narrow(world, feet)
    } else {
        is_valid_feet(world, feet, agent.height)
    }
}

/// Step up: the smallest `k` in `1..=agent.max_step_up` for which the agent's own column is
/// passable from `feet.y + height` to `feet.y + height + k - 1` (room to jump) and
/// `target + k * Y` is a valid feet position (or, for an agent that swims, a swimming
/// position).
#[inline]
#[must_use]
pub fn step_up_height<W: VoxelWorld + ?Sized>(
    world: &W,
    agent: &Agent,
    feet: IVec3,
    target: IVec3,
) -> Option<u32> {
    by_width!(world, agent, None, |world, agent| step_up_height_narrow(
        world, agent, feet, target
    ))
}

/// [`step_up_height`] for an agent one block wide.
#[inline]
pub(super) fn step_up_height_narrow<W: VoxelWorld + ?Sized>(
    world: &W,
    agent: &Agent,
    feet: IVec3,
    target: IVec3,
) -> Option<u32> {
    if !in_rule_range(agent, feet) || !in_key_range(target) {
        return None;
    }
    let height = agent.height as i32;
    for k in 1..=agent.max_step_up as i32 {
        if !world.is_passable(feet + IVec3::new(0, height + k - 1, 0)) {
            return None;
        }
        if valid_walker_position(world, agent, target + IVec3::new(0, k, 0)) {
            return Some(k as u32);
        }
    }
    None
}

/// No corner cutting: for a diagonal move `direction` from feet height `feet.y` to `to_y`,
/// both side columns are passable at every height from `feet.y` to
/// `max(feet.y, to_y) + height - 1`, and neither has a fence just below `feet.y` (a fence
/// reaches half way into the cell above it, rule 6). Always true for straight moves.
#[inline]
#[must_use]
pub fn corners_clear<W: VoxelWorld + ?Sized>(
    world: &W,
    height: u32,
    feet: IVec3,
    direction: IVec3,
    to_y: i32,
) -> bool {
    let to = IVec3::new(feet.x, to_y, feet.z);
    if !in_key_range(feet) || !in_key_range(to) || height > MAX_AGENT_SPAN || !is_step(direction) {
        return false;
    }
    if direction.x == 0 || direction.z == 0 {
        return true;
    }
    let side_a = feet + IVec3::new(direction.x, 0, 0);
    let side_b = feet + IVec3::new(0, 0, direction.z);
    let top = feet.y.max(to_y) + height as i32 - 1;
    world.floor_top(side_a - IVec3::Y) <= FULL_BLOCK
        && world.floor_top(side_b - IVec3::Y) <= FULL_BLOCK
        && (feet.y..=top).all(|y| {
            world.is_passable(IVec3::new(side_a.x, y, side_a.z))
                && world.is_passable(IVec3::new(side_b.x, y, side_b.z))
        })
}

/// The move from `feet` in `direction` (one of [`DIRECTIONS`](crate::moves::DIRECTIONS)), if the walking rules allow
/// one. `feet` is assumed to be a valid feet position.
///
/// This is the one cell-by-cell statement of rules 1-3, 6 and 7; [`neighbours`](crate::moves::neighbours) applies
/// rules 1-3 to whole columns at once where no partial floor or fence is near, and calls
/// this function everywhere else.
#[inline]
#[must_use]
pub fn move_in_direction<W: VoxelWorld + ?Sized>(
    world: &W,
    agent: &Agent,
    costs: &MoveCosts,
    feet: IVec3,
    direction: IVec3,
) -> Option<Move> {
    by_width!(world, agent, None, |world, agent| move_in_direction_narrow(
        world, agent, costs, feet, direction
    ))
}

/// [`move_in_direction`] for an agent one block wide.
#[inline]
pub(super) fn move_in_direction_narrow<W: VoxelWorld + ?Sized>(
    world: &W,
    agent: &Agent,
    costs: &MoveCosts,
    feet: IVec3,
    direction: IVec3,
) -> Option<Move> {
    if !in_rule_range(agent, feet) || !is_step(direction) {
        return None;
    }
    let target = feet + direction;
    let swims = agent.swims_at_surface();
    let (kind, to) = if body_fits(world, target, agent.height) {
        if level_walk(world, target) || (swims && is_swimming_position(world, target)) {
            (MoveKind::Walk, target)
        } else {
            let k = if swims {
                swimmer_drop_depth(world, target, agent.max_drop)?
            } else {
                drop_depth(world, target, agent.max_drop)?
            };
            (MoveKind::Drop(k), target - IVec3::new(0, k as i32, 0))
        }
    } else {
        let k = step_up_height_narrow(world, agent, feet, target)?;
        (MoveKind::StepUp(k), target + IVec3::new(0, k as i32, 0))
    };
    if !corners_clear(world, agent.height, feet, direction, to.y) {
        return None;
    }
    let rise = floor_rise(world, feet, to);
    let jump = if swims && rise < 0 && world.terrain(to).contains(TerrainFlags::IN_WATER) {
        // Rule 8: water breaks a fall of any depth.
        false
    } else {
        rise_allowed(agent, rise)?
    };
    priced_move(world, agent, costs, to, direction, kind, jump)
}

/// The move to `to` in `direction` with its full cost (the horizontal step, the climb or
/// fall, the jump when `jump`, the terrain terms and the world's extra cost), or `None` when
/// rule 7 forbids ending there, or the agent avoids water and `to` is in water.
#[expect(
    clippy::inline_always,
    reason = "the end of every move of the hot loop; left to the compiler it became a call, \
              about 6% more instructions per expansion (callgrind)"
)]
#[inline(always)]
pub(super) fn priced_move<W: VoxelWorld + ?Sized>(
    world: &W,
    agent: &Agent,
    costs: &MoveCosts,
    to: IVec3,
    direction: IVec3,
    kind: MoveKind,
    jump: bool,
) -> Option<Move> {
    let terrain = position_terrain(world, to);
    // Rule 7 and the agent's refusals concern water and doors: plain terrain passes both.
    if !terrain.is_plain() && (!enterable(world, to, terrain) || !terrain_allowed(agent, terrain)) {
        return None;
    }
    let horizontal = if direction.x != 0 && direction.z != 0 {
        costs.diagonal
    } else {
        costs.straight
    };
    let vertical = match kind {
        MoveKind::Walk => 0,
        MoveKind::StepUp(k) => k.saturating_mul(costs.ascend),
        MoveKind::Drop(k) => k.saturating_mul(costs.descend),
    };
    let jump_cost = if jump { costs.jump } else { 0 };
    Some(Move {
        feet: to,
        direction,
        kind,
        jump,
        cost: horizontal
            .saturating_add(vertical)
            .saturating_add(jump_cost)
            .saturating_add(terrain_cost(terrain, costs))
            .saturating_add(world.extra_cost(to)),
    })
}

/// Whether an agent may end a move on terrain `terrain`: anything, unless it avoids water
/// ([`WaterMode::Avoid`](crate::moves::agent::WaterMode::Avoid)) and the feet cell is water, or it does
/// not open doors ([`Agent::opens_doors`]) and the feet cell is a door.
#[inline]
pub(super) fn terrain_allowed(agent: &Agent, terrain: TerrainFlags) -> bool {
    !(agent.avoids_water() && terrain.contains(TerrainFlags::IN_WATER))
        && (agent.opens_doors || !terrain.contains(TerrainFlags::IN_DOOR))
}

/// Ladder climb: from the valid feet position `feet`, straight up (`up`) when the feet cell
/// is a ladder, or straight down when the floor is a ladder, to a valid feet position. See
/// rule 4 of the [module docs](crate::moves).
#[inline]
#[must_use]
pub fn ladder_climb<W: VoxelWorld + ?Sized>(
    world: &W,
    agent: &Agent,
    costs: &MoveCosts,
    feet: IVec3,
    up: bool,
) -> Option<Move> {
    by_width!(world, agent, None, |world, agent| ladder_climb_narrow(
        world, agent, costs, feet, up
    ))
}

/// [`ladder_climb`] for an agent one block wide.
#[inline]
pub(super) fn ladder_climb_narrow<W: VoxelWorld + ?Sized>(
    world: &W,
    agent: &Agent,
    costs: &MoveCosts,
    feet: IVec3,
    up: bool,
) -> Option<Move> {
    if !in_rule_range(agent, feet) {
        return None;
    }
    let here = world.terrain(feet);
    let (needed, direction, vertical) = if up {
        (TerrainFlags::IN_LADDER, IVec3::Y, costs.ascend)
    } else {
        (TerrainFlags::ON_LADDER, IVec3::NEG_Y, costs.descend)
    };
    if !here.contains(needed) {
        return None;
    }
    let to = feet + direction;
    if !valid_walker_position(world, agent, to) {
        return None;
    }
    let terrain = position_terrain(world, to);
    if !enterable(world, to, terrain) || !terrain_allowed(agent, terrain) {
        return None;
    }
    Some(Move {
        feet: to,
        direction,
        kind: if up {
            MoveKind::StepUp(1)
        } else {
            MoveKind::Drop(1)
        },
        jump: false,
        cost: vertical
            .saturating_add(costs.climb)
            .saturating_add(terrain_cost(terrain, costs))
            .saturating_add(world.extra_cost(to)),
    })
}

/// Whether the rules can be applied at `feet` for `agent` without leaving the `i32` range:
/// `feet` lies in the key range and no span of the agent exceeds [`MAX_AGENT_SPAN`].
#[inline]
pub(super) fn in_rule_range(agent: &Agent, feet: IVec3) -> bool {
    in_key_range(feet)
        && agent.height <= MAX_AGENT_SPAN
        && agent.max_drop <= MAX_AGENT_SPAN
        && agent.max_step_up <= MAX_AGENT_SPAN
}

/// Whether `direction` is a horizontal step of at most one column along x and along z.
#[inline]
pub(super) fn is_step(direction: IVec3) -> bool {
    direction.y == 0 && direction.x.unsigned_abs() <= 1 && direction.z.unsigned_abs() <= 1
}
