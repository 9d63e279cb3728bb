//! The neighbour generator: the walking rules of a two-tall (or `height`-tall) agent.
//!
//! From a valid feet position `f = (x, y, z)` the agent tries the 8 horizontal directions
//! (4 with [`Agent::diagonals`] off), never straight up or down (except on a ladder, rule 4
//! below). Each direction yields at most
//! one move, decided in this order, with `c` the target column:
//!
//! 1. If the body fits at `(c, y)`: a **level walk** when `(c, y - 1)` is standable
//!    ([`level_walk`]), otherwise a **drop by k** to the highest valid feet position
//!    `(c, y - k)`, `1 <= k <= max_drop` ([`drop_depth`]); a longer fall is no move.
//! 2. Otherwise a **step up by k**, the smallest `1 <= k <= max_step_up` for which the agent's
//!    own column has head room from `y + height` to `y + height + k - 1` and `(c, y + k)` is a
//!    valid feet position ([`step_up_height`]).
//! 3. A diagonal move never cuts a corner: both side columns must be passable from `y` to
//!    `max(y, y') + height - 1` ([`corners_clear`]).
//!
//! Fliers and swimmers ([`Movement::Fly`](crate::Movement::Fly),
//! [`Movement::Swim`](crate::Movement::Swim)) follow the rules of [`fly`] instead: free moves
//! to the 26 neighbouring cells.
//!
//! Costs: the horizontal step (`straight` or `diagonal`), plus `k * ascend` or `k * descend`,
//! plus the terrain terms of the target ([`terrain_cost`]), plus the world's
//! [`VoxelWorld::extra_cost`] of the target feet cell.
//!
//! ## Rules added for block kinds beyond air and solid
//!
//! None of these applies in a world whose [`VoxelWorld::terrain`] is always
//! [`TerrainFlags::PLAIN`] (a [`ChunkedWorld`](crate::ChunkedWorld) of only air and solid blocks):
//! there the rules above are the whole story, with the same routes and costs.
//!
//! 4. **Ladder climb** ([`ladder_climb`]), tried after the 8 directions: from a valid feet
//!    position `f` whose feet cell is a ladder ([`TerrainFlags::IN_LADDER`]), **up** to `f + Y`
//!    when that is a valid feet position (its floor is the ladder itself, so this needs only
//!    head room); from a valid `f` whose floor `f - Y` is a ladder ([`TerrainFlags::ON_LADDER`]),
//!    **down** to `f - Y` when that is a valid feet position. Climbing out of the top of a
//!    ladder is the up move from its top cell; ladder cells are standable, so the agent can
//!    also walk on and off a ladder column at any rung with the ordinary moves. Cost:
//!    `ascend + climb` up, `descend + climb` down, plus the target's terrain terms.
//! 5. **Terrain terms** ([`terrain_cost`]): every move whose target `t` has its feet cell in
//!    water adds `water`; standing on a slow floor adds `slow_floor`; having danger (lava or a
//!    damaging block, [`Block::Hazard`](crate::Block::Hazard)) in the 3x3x3 cube centred on
//!    `t` adds `danger`; a door or fence gate in the feet cell adds `door`; a cobweb in the
//!    feet cell or the cell above it adds `cobweb`; a swimming position adds `swim` (rule 8).
//!    Water, doors and cobwebs are passable and not standable, like air; lava and hazards are
//!    neither passable nor standable, so no body cell, floor or fall passes through them; a
//!    slow floor is standable and not passable, like solid. An agent that avoids water
//!    ([`WaterMode::Avoid`](agent::WaterMode::Avoid)) makes no move whose target's feet cell
//!    is water, and one that does not open doors ([`Agent::opens_doors`] false) none whose
//!    target's feet cell is a door; the other terms only price a move.
//!
//! ## Rules for real Minecraft blocks
//!
//! Heights below are in sixteenths of a block, the unit of Minecraft's collision boxes.
//! [`VoxelWorld::floor_top`] gives the top of a cell's collision box: 16 for a full block,
//! 1 to 15 for a lower floor ([`Block::Floor`](crate::Block::Floor): bottom slabs 8, snow of
//! `n` layers `2 * (n - 1)`, beds, ...), 24 for a fence or wall
//! ([`Block::Fence`](crate::Block::Fence)). In a world whose floor tops are all 16 (the
//! default) and that has no deep water, rules 6 to 8 change nothing.
//!
//! 6. **Floor heights** ([`floor_rise`], [`rise_allowed`]). Nodes stay whole feet cells (the
//!    cell above whatever the feet stand on), and rules 1-3 pick the target of each direction
//!    as before; then the real height decides whether the move is made. The rise of a move
//!    from `f` to `t` is `16 * (t.y - f.y) + floor_top(t - Y) - floor_top(f - Y)`:
//!    - a rise from `-9` to `9` ([`STEP_RISE`]) is walked, without a jump: Minecraft's step
//!      height is 0.6 block, 9.6 sixteenths (slab onto slab, a block onto a bottom slab one
//!      cell up, a bottom slab onto a block in the same cell row);
//!    - a higher rise needs a jump, which clears 1.25 blocks: it is legal up to
//!      `16 * max_step_up + 4` ([`JUMP_EXTRA`]), so 20 for the default agent. A bottom slab
//!      onto a full block one cell up (24, 1.5 blocks) is no move;
//!    - a deeper fall is legal up to `16 * max_drop` (3 blocks by default, the longest fall
//!      without damage), so a full block onto a bottom slab three cells down (56) is no move.
//!
//!    The move's kind and cost stay those of its feet cells: a walk up onto a slab one cell
//!    higher is a [`MoveKind::StepUp(1)`](MoveKind::StepUp) and pays `ascend` like any move
//!    that raises the feet one cell (which keeps the default heuristic, `ascend` per cell of
//!    height, consistent). "Costs as a walk" means it does not pay [`MoveCosts::jump`], the
//!    extra added to every move whose rise is more than [`STEP_RISE`] (0 by default).
//!
//!    A fence or wall is neither passable nor standable, and it also blocks the cell above it
//!    (its top is at 1.5 blocks): in rule 3 a side column whose cell below the feet height is
//!    a fence blocks the diagonal. (Nothing else needs the rule: no feet position stands on a
//!    fence, so no walk, drop or step up can end in or pass through the cell above one.)
//! 7. **Deep water** ([`enterable`]): no move ends where both the feet cell and the cell
//!    above it are water. The agent wades through water one block deep with its head in the
//!    air (rule 5's `water` term), and it never walks along the bottom of deeper water: an NPC
//!    there would drown, and in Minecraft it would float up anyway. Swimming across the surface
//!    is rule 8, for agents that swim. Moves out of deep water (a start placed there) are
//!    allowed.
//! 8. **Swimming at the surface** ([`is_swimming_position`], [`swimmer_drop_depth`]), for a
//!    walker whose [`Agent::water`] is [`WaterMode::Swim`](agent::WaterMode::Swim) only. A
//!    **swimming position** is a feet cell of water (source, flowing or waterlogged: whatever
//!    the world reports as [`TerrainFlags::IN_WATER`]) whose cell above is not water and whose
//!    cell below is not standable (over a floor it is a wading position, rule 7); with room
//!    for the body it is a valid position of such an agent, as a valid feet position is.
//!    Then, in rules 1-3, a target that is a swimming position counts as if it had a floor:
//!    - rule 1: with the body fitting at `(c, y)`, a swimming position there is a **level
//!      move** (across the surface, in or out of the water at the same height); otherwise the
//!      agent falls to the first (highest) valid feet position or swimming position of column
//!      `c`. A fall deeper than `max_drop` is allowed when the feet land in water, a swimming
//!      or a wading position (water breaks a fall), up to [`MAX_WATER_DROP`];
//!    - rule 2: a step up may end at a swimming position as at a valid feet position, and the
//!      step up out of a swimming position onto a bank is the ordinary step up (head room in
//!      the agent's own column);
//!    - rule 3 is unchanged: water is passable, so diagonals across the surface never cut a
//!      corner of the bank;
//!    - rule 4: a ladder climb may end at a swimming position;
//!    - rule 6 reads the floor top of the cell under a swimming position as for any position
//!      (water and air count as a full block, so the surface is level with a bank whose top
//!      is at the feet), except that a fall into water has no depth limit but
//!      [`MAX_WATER_DROP`].
//!
//!    There is no diving: rule 7 still refuses every position with the feet and the cell
//!    above in water, so the agent never goes below the surface. Cost: every move whose
//!    target is a swimming position ([`TerrainFlags::SWIMMING`], which
//!    [`position_terrain`] adds to the world's terrain) pays [`MoveCosts::swim`] on top of
//!    rule 5's `water`. An agent whose water mode is
//!    [`WaterMode::Avoid`](agent::WaterMode::Avoid) makes no move whose target's feet cell is
//!    water, not even a wade; [`WaterMode::Wade`](agent::WaterMode::Wade) (the default) is
//!    rules 1-7 alone.
//!
//! Every added term is non-negative and a rung up costs at least `ascend`, a rung down at
//! least `descend`, so the default heuristic stays admissible and consistent.
//!
//! ## How real blocks map onto these rules, and why
//!
//! The Minecraft loader maps block states onto [`Block`](crate::Block) kinds; the rules above
//! then decide. Where Baritone, mineflayer-pathfinder and azalea disagree, voxnav follows the
//! collision boxes, which are what the game itself moves an entity against:
//!
//! - **Carpets, snow of 1-2 layers** and anything whose collision top is at most 3/16 are air:
//!   the step height lifts a walker over them without a jump and the head room they take is
//!   under 0.2 block. (Baritone walks through carpets and snow below 3 layers; mineflayer
//!   walks in blocks lower than 0.1 block and on the rest; azalea treats any non-empty
//!   collision box that is not a slab, stair or full block as a wall.)
//! - **Deeper snow** is a floor at its collision height, `2 * (layers - 1)` sixteenths, so a
//!   snow drift is climbed like a slab. (Baritone refuses to walk through 3 or more layers and
//!   does not stand on them; azalea does not stand on them either.)
//! - **Cobwebs** are passable at the cost [`MoveCosts::cobweb`]: they have no collision box and
//!   only slow a walker to a quarter of its speed. (Baritone avoids them entirely; mineflayer
//!   and azalea pass through them at no extra cost.)
//! - **Powder snow** and **magma** are [`Block::Hazard`](crate::Block::Hazard): powder snow
//!   sinks and freezes a walker without leather boots and cannot be jumped out of, magma
//!   burns whoever stands on it. (Baritone and azalea refuse to stand on magma; azalea refuses
//!   to enter powder snow; mineflayer treats magma as an ordinary block.)
//! - **Fences and walls** are [`Block::Fence`](crate::Block::Fence): 1.5 blocks, higher than
//!   any jump, so never stepped onto or over (all three agree).
//! - **Wooden doors and fence gates** are [`Block::Door`](crate::Block::Door), passable at
//!   [`MoveCosts::door`]; iron doors are barriers (as Baritone: only iron doors are treated
//!   as shut). An agent that does not open doors ([`Agent::opens_doors`] false, most mob
//!   types of [`profile`]) makes no move whose feet end in a door or fence gate.
//!
//! ## Extreme inputs
//!
//! Moves exist only between valid feet positions, and those lie in the searchable key range
//! ([`crate::world::key`]). So every function here answers "no move" (`false`, `None`, no
//! moves) for a position outside that range, or for an agent with a span above
//! [`MAX_AGENT_SPAN`] (which [`Agent::validate`] refuses), instead of overflowing `i32`; and
//! costs saturate at `u32::MAX` instead of overflowing (settings that [`MoveCosts::validate`]
//! accepts never get near it).

pub mod agent;
pub mod fly;
mod mob_table;
pub mod pathcheck;
pub mod profile;

use glam::IVec3;

use crate::world::key::in_key_range;
use crate::world::{
    AROUND, ColumnBits, FULL_BLOCK, TerrainFlags, VoxelWorld, body_fits, is_valid_feet,
};
use agent::{Agent, MAX_AGENT_SPAN, MoveCosts};

/// Rule 8: the deepest fall into water an agent that swims takes in one move. The game puts
/// no limit on a fall that water breaks; this one keeps a move's reach, the graph's update
/// window and the number of distinct moves a compiled graph stores bounded. 32 blocks is
/// more than the fall from a mountain cliff into a lake at its foot on most terrain.
pub const MAX_WATER_DROP: u32 = 32;

/// Rule 6: the largest rise (and fall) of the floor, in sixteenths of a block, that a walker
/// takes without jumping (or falling): Minecraft's step height is 0.6 block, 9.6 sixteenths.
pub const STEP_RISE: i64 = 9;

/// Rule 6: how much higher than `max_step_up` whole blocks a jump reaches, in sixteenths: a
/// Minecraft jump clears 1.25 blocks, 4 sixteenths above one block.
pub const JUMP_EXTRA: i64 = 4;

/// Sixteenths in a block.
const BLOCK: i64 = FULL_BLOCK as i64;

/// The 8 horizontal directions: the 4 straight ones first, then the 4 diagonals.
pub const DIRECTIONS: [IVec3; 8] = [
    IVec3::new(1, 0, 0),
    IVec3::new(-1, 0, 0),
    IVec3::new(0, 0, 1),
    IVec3::new(0, 0, -1),
    IVec3::new(1, 0, 1),
    IVec3::new(1, 0, -1),
    IVec3::new(-1, 0, 1),
    IVec3::new(-1, 0, -1),
];

/// How a move changes the agent's height.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum MoveKind {
    /// Walking at the same height.
    Walk,
    /// Climbing `k` blocks.
    StepUp(u32),
    /// Falling `k` blocks.
    Drop(u32),
}

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

/// Rule 7: whether a move may end at the feet position `to`, whose terrain is `terrain`: not
/// when both the feet cell and the cell above it are water.
#[inline]
#[must_use]
pub fn enterable<W: VoxelWorld + ?Sized>(world: &W, to: IVec3, terrain: TerrainFlags) -> bool {
    !(terrain.contains(TerrainFlags::IN_WATER)
        && world
            .terrain(to + IVec3::Y)
            .contains(TerrainFlags::IN_WATER))
}

/// Rule 8: whether `feet` is a swimming position: its feet cell is water, the cell above it
/// is not water (the head is out, or for a one-tall agent the surface is here), and the cell
/// below is not standable (over a floor the same cell is a wading position, rule 7). Says
/// nothing about room for the body.
#[inline]
#[must_use]
pub fn is_swimming_position<W: VoxelWorld + ?Sized>(world: &W, feet: IVec3) -> bool {
    in_key_range(feet)
        && world.terrain(feet).contains(TerrainFlags::IN_WATER)
        && !world
            .terrain(feet + IVec3::Y)
            .contains(TerrainFlags::IN_WATER)
        && !world.is_standable(feet - IVec3::Y)
}

/// The terrain of the feet position `feet` as the rules price it: the world's
/// [`VoxelWorld::terrain`], plus [`TerrainFlags::SWIMMING`] at a swimming position (rule 8).
#[inline]
#[must_use]
pub fn position_terrain<W: VoxelWorld + ?Sized>(world: &W, feet: IVec3) -> TerrainFlags {
    let terrain = world.terrain(feet);
    // Only water can be a swimming position: the common dry case reads nothing more.
    if terrain.contains(TerrainFlags::IN_WATER) {
        wet_terrain(world, feet, terrain)
    } else {
        terrain
    }
}

/// [`position_terrain`] of a feet cell in water, whose terrain is `terrain`. Out of line, so
/// that the dry case stays small enough to inline into every move.
#[inline(never)]
fn wet_terrain<W: VoxelWorld + ?Sized>(
    world: &W,
    feet: IVec3,
    terrain: TerrainFlags,
) -> TerrainFlags {
    // `is_swimming_position` with the feet cell known to be water, the floor read first: a
    // wading position (every wet target of a walker that does not swim) stops there.
    if in_key_range(feet)
        && !world.is_standable(feet - IVec3::Y)
        && !world
            .terrain(feet + IVec3::Y)
            .contains(TerrainFlags::IN_WATER)
    {
        terrain | TerrainFlags::SWIMMING
    } else {
        terrain
    }
}

/// One move produced by the neighbour generator.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Move {
    /// The feet position after the move.
    pub feet: IVec3,
    /// The direction taken: one of [`DIRECTIONS`], or `Y` / `-Y` for a ladder climb; for a
    /// flier or swimmer, one of [`fly::FREE_DIRECTIONS`].
    pub direction: IVec3,
    /// How the height changed (a ladder climb is a `StepUp(1)` or a `Drop(1)`).
    pub kind: MoveKind,
    /// Whether the agent must jump: the floor rises by more than [`STEP_RISE`] (rule 6). A
    /// jump pays [`MoveCosts::jump`]; a walk up onto a slab is a `StepUp(1)` without a jump.
    pub jump: bool,
    /// The move's cost, terrain terms and [`VoxelWorld::extra_cost`] included.
    pub cost: u32,
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

/// Drop for an agent that swims at the surface (rule 8): with the body fitting at `top` but
/// neither a floor below it nor a swimming position there, the depth `k` of the first
/// (highest) position `top - k * Y` that is a valid feet position or a swimming position,
/// falling only through passable cells; `None` when that position is more than `max_drop`
/// deep and its feet cell is not water (water breaks a fall of any depth up to
/// [`MAX_WATER_DROP`]), or when the fall is deeper than that.
#[inline]
#[must_use]
pub fn swimmer_drop_depth<W: VoxelWorld + ?Sized>(
    world: &W,
    top: IVec3,
    max_drop: u32,
) -> Option<u32> {
    if !in_key_range(top) || max_drop > MAX_AGENT_SPAN {
        return None;
    }
    let mut feet = top;
    for k in 1..=max_drop.max(MAX_WATER_DROP) {
        feet.y -= 1;
        if !world.is_passable(feet) {
            return None;
        }
        let floor = world.is_standable(feet - IVec3::Y);
        if floor || is_swimming_position(world, feet) {
            let in_water = world.terrain(feet).contains(TerrainFlags::IN_WATER);
            return (k <= max_drop || in_water).then_some(k);
        }
    }
    None
}

/// Whether `feet` is a valid position for the walking agent `agent`: a valid feet position,
/// or for an agent that swims, a swimming position with room for the body.
#[inline]
fn valid_walker_position<W: VoxelWorld + ?Sized>(world: &W, agent: &Agent, feet: IVec3) -> bool {
    if agent.swims_at_surface() {
        agent.is_valid_position(world, feet)
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

/// The move from `feet` in `direction` (one of [`DIRECTIONS`]), if the walking rules allow
/// one. `feet` is assumed to be a valid feet position.
///
/// This is the one cell-by-cell statement of rules 1-3, 6 and 7; [`neighbours`] applies
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
        let k = step_up_height(world, agent, feet, target)?;
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
fn priced_move<W: VoxelWorld + ?Sized>(
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
/// ([`WaterMode::Avoid`](agent::WaterMode::Avoid)) and the feet cell is water, or it does
/// not open doors ([`Agent::opens_doors`]) and the feet cell is a door.
#[inline]
fn terrain_allowed(agent: &Agent, terrain: TerrainFlags) -> bool {
    !(agent.avoids_water() && terrain.contains(TerrainFlags::IN_WATER))
        && (agent.opens_doors || !terrain.contains(TerrainFlags::IN_DOOR))
}

/// Ladder climb: from the valid feet position `feet`, straight up (`up`) when the feet cell
/// is a ladder, or straight down when the floor is a ladder, to a valid feet position. See
/// rule 4 of the [module docs](self).
#[inline]
#[must_use]
pub fn ladder_climb<W: VoxelWorld + ?Sized>(
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

/// All moves from the valid feet position `feet`, written into `out` (cleared first, so one
/// buffer can serve every call without allocating).
///
/// Reads the agent's own column and the 8 neighbouring columns once each through
/// [`VoxelWorld::column`] and applies the rules to the bitmasks; when any of those cells is a
/// partial floor or a fence ([`ColumnBits::partial`]) it calls [`move_in_direction`] for each
/// direction instead. Either way the result is the same as calling [`move_in_direction`] for
/// each direction.
///
/// ```
/// use voxnav::IVec3;
/// use voxnav::{Agent, ChunkedWorld, Block, MoveCosts};
/// use voxnav::engine::neighbours;
///
/// let mut world = ChunkedWorld::new();
/// world.fill(IVec3::new(-1, 0, -1), IVec3::new(1, 0, 1), Block::Solid)?;
/// let mut moves = Vec::new();
/// neighbours(&world, &Agent::default(), &MoveCosts::default(), IVec3::new(0, 1, 0), &mut moves);
/// assert_eq!(moves.len(), 8);
/// # Ok::<(), voxnav::Error>(())
/// ```
pub fn neighbours<W: VoxelWorld + ?Sized>(
    world: &W,
    agent: &Agent,
    costs: &MoveCosts,
    feet: IVec3,
    out: &mut Vec<Move>,
) {
    out.clear();
    if !in_rule_range(agent, feet) {
        return;
    }
    // Moves reach at most one column across and MAX_AGENT_SPAN cells up or down; only from
    // near the edge of the key range can one land outside it.
    let reach = IVec3::new(1, MAX_AGENT_SPAN as i32, 1);
    if in_key_range(feet - reach) && in_key_range(feet + reach) {
        for_each_neighbour(world, agent, costs, feet, |step| out.push(step));
    } else {
        for_each_neighbour(world, agent, costs, feet, |step| {
            if in_key_range(step.feet) {
                out.push(step);
            }
        });
    }
}

/// Calls `visit` with every move from the valid feet position `feet`, in the order of
/// [`neighbours`]: the engines' way in, with no buffer between the rules and the node table.
#[inline]
pub(crate) fn for_each_neighbour<W: VoxelWorld + ?Sized>(
    world: &W,
    agent: &Agent,
    costs: &MoveCosts,
    feet: IVec3,
    visit: impl FnMut(Move),
) {
    if agent.movement.is_free() {
        fly::for_each_free_move(world, agent, costs, feet, visit);
    } else {
        WalkingMoves.for_each(world, agent, costs, feet, visit);
    }
}

/// The neighbour generator of one movement mode. An engine that takes it as a type parameter
/// gets an inner loop specialised to that mode, where [`for_each_neighbour`] decides per
/// call.
pub(crate) trait Expansion: Copy {
    /// Calls `visit` with every move of `agent` from the valid position `feet`.
    fn for_each<W: VoxelWorld + ?Sized>(
        self,
        world: &W,
        agent: &Agent,
        costs: &MoveCosts,
        feet: IVec3,
        visit: impl FnMut(Move),
    );

    /// Writes every move of `agent` from the valid position `feet` into `out` (cleared
    /// first). An engine then walks the moves in a plain loop, its per-move work inlined,
    /// rather than in a visitor called once per move.
    #[inline]
    fn collect<W: VoxelWorld + ?Sized>(
        self,
        world: &W,
        agent: &Agent,
        costs: &MoveCosts,
        feet: IVec3,
        out: &mut MoveBuffer,
    ) {
        out.len = 0;
        self.for_each(world, agent, costs, feet, |step| out.push(step));
    }
}

/// The most moves any generator yields from one position: a flier's 26 neighbours (a walker
/// has at most 8 directions and 2 ladder climbs).
const MAX_MOVES: usize = 26;

/// A fixed buffer for the moves from one position, reused across expansions.
#[derive(Debug, Clone, Copy)]
pub(crate) struct MoveBuffer {
    moves: [Move; MAX_MOVES],
    len: usize,
}

impl Default for MoveBuffer {
    fn default() -> Self {
        let none = Move {
            feet: IVec3::ZERO,
            direction: IVec3::ZERO,
            kind: MoveKind::Walk,
            jump: false,
            cost: 0,
        };
        Self {
            moves: [none; MAX_MOVES],
            len: 0,
        }
    }
}

impl MoveBuffer {
    #[inline]
    fn push(&mut self, step: Move) {
        // Generators yield at most MAX_MOVES moves; a further one would be a bug in a
        // generator, dropped rather than a panic in the search.
        if let Some(slot) = self.moves.get_mut(self.len) {
            *slot = step;
            self.len += 1;
        }
    }

    /// The moves written by the last [`Expansion::collect`].
    #[inline]
    pub(crate) fn as_slice(&self) -> &[Move] {
        &self.moves[..self.len]
    }
}

/// The walking rules of this module as an [`Expansion`].
#[derive(Debug, Clone, Copy)]
pub(crate) struct WalkingMoves;

impl Expansion for WalkingMoves {
    #[inline]
    fn for_each<W: VoxelWorld + ?Sized>(
        self,
        world: &W,
        agent: &Agent,
        costs: &MoveCosts,
        feet: IVec3,
        visit: impl FnMut(Move),
    ) {
        for_each_walking_move(world, agent, costs, feet, visit);
    }
}

/// The walking rules' moves from the valid feet position `feet`.
#[inline]
fn for_each_walking_move<W: VoxelWorld + ?Sized>(
    world: &W,
    agent: &Agent,
    costs: &MoveCosts,
    feet: IVec3,
    mut visit: impl FnMut(Move),
) {
    let directions = if agent.diagonals {
        &DIRECTIONS[..]
    } else {
        &DIRECTIONS[..4]
    };
    let window = agent.max_drop + 1 + agent.height + agent.max_step_up;
    let cell_by_cell = |visit: &mut dyn FnMut(Move)| {
        for &direction in directions {
            if let Some(step) = move_in_direction(world, agent, costs, feet, direction) {
                visit(step);
            }
        }
    };
    if window > 64 {
        cell_by_cell(&mut visit);
        visit_ladder_climbs(world, agent, costs, feet, &mut visit);
        return;
    }
    // Bit i of every column below describes the cell at height `base + i`; the feet are at
    // bit `max_drop + 1`, so the lowest floor a drop can land on is bit 0.
    let base = feet.y - agent.max_drop as i32 - 1;
    let around = if agent.diagonals {
        world.columns_around(feet.x, feet.z, base, window)
    } else {
        let mut around = [ColumnBits::default(); 9];
        for (column, &(dx, dz)) in around.iter_mut().zip(&AROUND[..5]) {
            *column = world.column(feet.x + dx, feet.z + dz, base, window);
        }
        around
    };
    if around.iter().any(|column| column.partial != 0) {
        // Rule 6 needs real floor heights: take the cell-by-cell statement of the rules.
        cell_by_cell(&mut visit);
        visit_ladder_climbs(world, agent, costs, feet, &mut visit);
        return;
    }
    let (own, columns) = (around[0], &around[1..]);
    let rules = ColumnRules {
        feet_bit: agent.max_drop + 1,
        body: (1u64 << agent.height) - 1,
        height: agent.height,
        max_drop: agent.max_drop,
        max_step_up: agent.max_step_up,
        own,
    };
    let grid = ColumnGrid {
        feet,
        base,
        directions,
        columns,
    };
    // One copy of the loop per water mode, so that a walker that does not swim pays nothing
    // for rule 8 in the hot loop.
    if agent.swims_at_surface() {
        visit_column_moves::<true, W>(world, agent, costs, &grid, &rules, &mut visit);
    } else {
        visit_column_moves::<false, W>(world, agent, costs, &grid, &rules, &mut visit);
    }
    visit_ladder_climbs(world, agent, costs, feet, &mut visit);
}

/// The column bits of one expansion: the feet, the height of bit 0, the directions tried
/// and the 8 neighbouring columns in the order of [`DIRECTIONS`].
struct ColumnGrid<'a> {
    feet: IVec3,
    base: i32,
    directions: &'a [IVec3],
    columns: &'a [ColumnBits],
}

/// Rules 1-3 over the column bits of `grid`, for a walker that swims at the surface when
/// `SWIMS`: calls `visit` with the move in each direction.
#[expect(
    clippy::inline_always,
    reason = "the hot loop of every expansion, called from one place per water mode"
)]
#[inline(always)]
fn visit_column_moves<const SWIMS: bool, W: VoxelWorld + ?Sized>(
    world: &W,
    agent: &Agent,
    costs: &MoveCosts,
    grid: &ColumnGrid<'_>,
    rules: &ColumnRules,
    visit: &mut impl FnMut(Move),
) {
    let ColumnGrid {
        feet,
        base,
        directions,
        columns,
    } = *grid;
    // Swimming positions are not in the column bits, and falls into water reach below the
    // window: an agent that swims takes the bits only where rule 8 cannot change the move,
    // and the cell-by-cell statement for every other direction.
    for (i, &direction) in directions.iter().enumerate() {
        let target = columns[i];
        if SWIMS && !rules.dry_for_swimmer(world, target, feet + direction) {
            if let Some(step) = move_in_direction(world, agent, costs, feet, direction) {
                visit(step);
            }
            continue;
        }
        let Some((bit, kind)) = rules.target(target) else {
            continue;
        };
        if i >= 4 {
            // The diagonal's side columns are the straight neighbours along x and along z.
            let side_x = columns[usize::from(direction.x < 0)];
            let side_z = columns[2 + usize::from(direction.z < 0)];
            let top = rules.feet_bit.max(bit) + rules.height - 1;
            let span = low_bits(top - rules.feet_bit + 1) << rules.feet_bit;
            if side_x.passable & span != span || side_z.passable & span != span {
                continue;
            }
        }
        let to = IVec3::new(
            feet.x + direction.x,
            base + bit as i32,
            feet.z + direction.z,
        );
        // Every floor here is a full block (no partial bit), so the rise is 16 per cell: a
        // step up is a jump within rule 6's limits, a walk or drop needs no jump.
        if let Some(step) = priced_move(
            world,
            agent,
            costs,
            to,
            direction,
            kind,
            matches!(kind, MoveKind::StepUp(_)),
        ) {
            visit(step);
        }
    }
}

/// Rule 4: calls `visit` with the ladder climbs from `feet`.
#[inline]
fn visit_ladder_climbs<W: VoxelWorld + ?Sized>(
    world: &W,
    agent: &Agent,
    costs: &MoveCosts,
    feet: IVec3,
    visit: &mut impl FnMut(Move),
) {
    let here = world.terrain(feet);
    if here.contains(TerrainFlags::IN_LADDER) || here.contains(TerrainFlags::ON_LADDER) {
        for up in [true, false] {
            if let Some(step) = ladder_climb(world, agent, costs, feet, up) {
                visit(step);
            }
        }
    }
}

/// Whether the rules can be applied at `feet` for `agent` without leaving the `i32` range:
/// `feet` lies in the key range and no span of the agent exceeds [`MAX_AGENT_SPAN`].
#[inline]
fn in_rule_range(agent: &Agent, feet: IVec3) -> bool {
    in_key_range(feet)
        && agent.height <= MAX_AGENT_SPAN
        && agent.max_drop <= MAX_AGENT_SPAN
        && agent.max_step_up <= MAX_AGENT_SPAN
}

/// Whether `direction` is a horizontal step of at most one column along x and along z.
#[inline]
fn is_step(direction: IVec3) -> bool {
    direction.y == 0 && direction.x.unsigned_abs() <= 1 && direction.z.unsigned_abs() <= 1
}

/// `n` low bits set (`n <= 64`).
#[inline]
fn low_bits(n: u32) -> u64 {
    if n >= 64 { u64::MAX } else { (1u64 << n) - 1 }
}

/// The walking rules over column bitmasks, for one expansion.
struct ColumnRules {
    feet_bit: u32,
    body: u64,
    height: u32,
    max_drop: u32,
    max_step_up: u32,
    own: ColumnBits,
}

impl ColumnRules {
    #[inline]
    fn fits(&self, column: ColumnBits, bit: u32) -> bool {
        (column.passable >> bit) & self.body == self.body
    }

    /// Whether rule 8 leaves the move into the column `target` (whose cell at the feet's
    /// height is `level`) as the walking rules make it, so that the bits answer for an agent
    /// that swims too: a level walk onto a floor; a drop within `max_drop` through no water
    /// (a swimming position is a water cell with no floor under it, and only such cells lie
    /// above the landing); a step up, or no move, with no cell on the way up where the body
    /// fits over no floor (the only places a swimming position could end it sooner).
    #[inline]
    fn dry_for_swimmer<W: VoxelWorld + ?Sized>(
        &self,
        world: &W,
        target: ColumnBits,
        level: IVec3,
    ) -> bool {
        let f = self.feet_bit;
        let standable = |bit: u32| (target.standable >> bit) & 1 != 0;
        if self.fits(target, f) {
            if standable(f - 1) {
                return true;
            }
            return match self.target(target) {
                Some((_, MoveKind::Drop(k))) => (0..k as i32).all(|j| {
                    !world
                        .terrain(level - IVec3::Y * j)
                        .contains(TerrainFlags::IN_WATER)
                }),
                _ => false,
            };
        }
        for k in 1..=self.max_step_up {
            if (self.own.passable >> (f + self.height + k - 1)) & 1 == 0 {
                return true;
            }
            if self.fits(target, f + k) {
                return standable(f + k - 1);
            }
        }
        true
    }

    /// The bit of the feet after a move into `target`, and the kind of move: rules 1 and 2
    /// of the module docs.
    #[inline]
    fn target(&self, target: ColumnBits) -> Option<(u32, MoveKind)> {
        let f = self.feet_bit;
        if self.fits(target, f) {
            if (target.standable >> (f - 1)) & 1 != 0 {
                return Some((f, MoveKind::Walk));
            }
            for k in 1..=self.max_drop {
                let bit = f - k;
                if (target.passable >> bit) & 1 == 0 {
                    return None;
                }
                if (target.standable >> (bit - 1)) & 1 != 0 {
                    return Some((bit, MoveKind::Drop(k)));
                }
            }
            return None;
        }
        for k in 1..=self.max_step_up {
            if (self.own.passable >> (f + self.height + k - 1)) & 1 == 0 {
                return None;
            }
            let bit = f + k;
            if (target.standable >> (bit - 1)) & 1 != 0 && self.fits(target, bit) {
                return Some((bit, MoveKind::StepUp(k)));
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn around_lists_the_centre_then_the_directions_in_order() {
        assert_eq!(AROUND[0], (0, 0));
        for (offset, direction) in AROUND[1..].iter().zip(DIRECTIONS) {
            assert_eq!(*offset, (direction.x, direction.z));
        }
    }
}
