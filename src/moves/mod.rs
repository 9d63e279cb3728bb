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
//! [`TerrainFlags::PLAIN`](crate::world::TerrainFlags::PLAIN) (a [`ChunkedWorld`](crate::ChunkedWorld) of only air and solid blocks):
//! there the rules above are the whole story, with the same routes and costs.
//!
//! 4. **Ladder climb** ([`ladder_climb`]), tried after the 8 directions: from a valid feet
//!    position `f` whose feet cell is a ladder ([`TerrainFlags::IN_LADDER`](crate::world::TerrainFlags::IN_LADDER)), **up** to `f + Y`
//!    when that is a valid feet position (its floor is the ladder itself, so this needs only
//!    head room); from a valid `f` whose floor `f - Y` is a ladder ([`TerrainFlags::ON_LADDER`](crate::world::TerrainFlags::ON_LADDER)),
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
//!    the world reports as [`TerrainFlags::IN_WATER`](crate::world::TerrainFlags::IN_WATER)) whose cell above is not water and whose
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
//!    target is a swimming position ([`TerrainFlags::SWIMMING`](crate::world::TerrainFlags::SWIMMING), which
//!    [`position_terrain`] adds to the world's terrain) pays [`MoveCosts::swim`] on top of
//!    rule 5's `water`. An agent whose water mode is
//!    [`WaterMode::Avoid`](agent::WaterMode::Avoid) makes no move whose target's feet cell is
//!    water, not even a wade; [`WaterMode::Wade`](agent::WaterMode::Wade) (the default) is
//!    rules 1-7 alone.
//!
//! Every added term is non-negative and a rung up costs at least `ascend`, a rung down at
//! least `descend`, so the default heuristic stays admissible and consistent.
//!
//! ## Bodies wider than one block
//!
//! An agent [`Agent::width`] blocks wide (1 to [`agent::MAX_AGENT_WIDTH`]) has its feet cell
//! at the min-x, min-z corner of its `width x height x width` box, and follows rules 1-8 (or
//! the flying rules) unchanged in the [`BoxView`] of the world, where each cell stands for
//! the horizontal layer of the box there: a layer is passable when all its cells are and no
//! fence under it reaches in, standable when any of its cells is (the box stands when any
//! block under it holds it up), its floor top the highest of those floors, in water when
//! all its cells are, slow, dangerous, a door or a cobweb when any is, and never a ladder
//! (no climbing for wide bodies). A diagonal therefore needs the boxes at both side
//! positions clear: the union of both ends' boxes and the two corner columns. The
//! [`wide`] module states the rule in full; an agent one block wide reads the world itself.
//!
//! The terms, and the rules chosen where the game's behaviour is unclear:
//!
//! - **feet cell**: the min-x, min-z corner cell of the bottom layer of the
//!   `width x height x width` box; a route of a wide agent is the route of that cell, and
//!   the entity's centre is `width / 2` blocks from it along x and z;
//! - **[`BoxView`]**: the world as a body `width` blocks wide sees it, one cell per layer of
//!   the box; every engine reads the rules of one-wide bodies through it, so they are stated
//!   once;
//! - **wide bodies climb no ladders**: a ladder is one block wide, and mobs wider than a
//!   block do not climb in the game; ladder blocks stay floors to stand on;
//! - **the extra cost** of a wide body's position is the world's
//!   [`VoxelWorld::extra_cost`] of its feet cell, so that every engine prices it alike;
//! - **mobs wider than [`agent::MAX_AGENT_WIDTH`] blocks** (ghast, happy ghast, giant, ender
//!   dragon) get no agent: [`Agent::mob`] answers a typed error
//!   ([`Error::InvalidSetting`](crate::Error::InvalidSetting)) rather than a body clamped to 3
//!   blocks, which would take gaps the mob cannot.
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

/// Runs `$body` with `$w` and `$a` bound to the world and the agent whose rules the agent
/// `$agent` follows in `$world`: the two themselves for an agent one block wide, the
/// [`wide::BoxView`] of the world and the agent one block wide for a wider one (see
/// [`wide`]); `$none` for a width the rules do not serve. The body must call only the
/// one-wide ("narrow") statements of the rules, which never dispatch again.
macro_rules! by_width {
    ($world:expr, $agent:expr, $none:expr, |$w:ident, $a:ident| $body:expr) => {
        match $agent.width {
            1 => {
                let ($w, $a) = ($world, $agent);
                $body
            }
            width if width <= $crate::moves::agent::MAX_AGENT_WIDTH => {
                let view = $crate::moves::wide::BoxView::new($world, width);
                let narrow = $agent.narrow();
                let $w = &view;
                let $a = &narrow;
                $body
            }
            _ => $none,
        }
    };
}

pub mod agent;
mod columns;
pub mod fly;
mod mob_table;
pub mod pathcheck;
mod position;
pub mod profile;
mod walk;
mod water;
pub mod wide;

use glam::IVec3;

use crate::world::VoxelWorld;
use crate::world::key::in_key_range;
use agent::{Agent, MAX_AGENT_SPAN, MoveCosts};
use columns::for_each_walking_move;
use walk::in_rule_range;
pub use walk::{
    JUMP_EXTRA, STEP_RISE, corners_clear, drop_depth, floor_rise, ladder_climb, level_walk,
    move_in_direction, rise_allowed, step_up_height, terrain_cost,
};
pub use water::{
    MAX_WATER_DROP, body_terrain, enterable, is_swimming_position, position_terrain,
    swimmer_drop_depth,
};
pub use wide::BoxView;

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

/// All moves from the valid feet position `feet`, written into `out` (cleared first, so one
/// buffer can serve every call without allocating).
///
/// Reads the agent's own column and the 8 neighbouring columns once each through
/// [`VoxelWorld::column`] and applies the rules to the bitmasks; when any of those cells is a
/// partial floor or a fence ([`ColumnBits::partial`](crate::world::ColumnBits::partial)) it calls [`move_in_direction`] for each
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
    by_width!(world, agent, (), |world, narrow| {
        if narrow.movement.is_free() {
            fly::for_each_free_move(world, narrow, costs, feet, visit);
        } else {
            for_each_walking_move(world, narrow, costs, feet, agent.width == 1, visit);
        }
    });
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
        by_width!(world, agent, (), |world, narrow| for_each_walking_move(
            world,
            narrow,
            costs,
            feet,
            agent.width == 1,
            visit
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::world::AROUND;

    #[test]
    fn around_lists_the_centre_then_the_directions_in_order() {
        assert_eq!(AROUND[0], (0, 0));
        for (offset, direction) in AROUND[1..].iter().zip(DIRECTIONS) {
            assert_eq!(*offset, (direction.x, direction.z));
        }
    }
}
