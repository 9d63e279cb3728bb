//! Rules 7 and 8 of [`crate::moves`]: deep water, and swimming at the surface.

use glam::IVec3;

use crate::moves::agent::{Agent, MAX_AGENT_SPAN};
use crate::world::key::in_key_range;
use crate::world::{TerrainFlags, VoxelWorld};

/// Rule 8: the deepest fall into water an agent that swims takes in one move. The game puts
/// no limit on a fall that water breaks; this one keeps a move's reach, the graph's update
/// window and the number of distinct moves a compiled graph stores bounded. 32 blocks is
/// more than the fall from a mountain cliff into a lake at its foot on most terrain.
pub const MAX_WATER_DROP: u32 = 32;

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

/// The terrain of the position `feet` of `agent` as the rules price it: [`position_terrain`]
/// of the world for an agent one block wide, of its [`BoxView`](crate::moves::BoxView) for a
/// wider one (see [`crate::moves::wide`]). What the terrain terms of a move into `feet` are
/// computed from.
#[inline]
#[must_use]
pub fn body_terrain<W: VoxelWorld + ?Sized>(world: &W, agent: &Agent, feet: IVec3) -> TerrainFlags {
    by_width!(
        world,
        agent,
        position_terrain(world, feet),
        |world, _narrow| position_terrain(world, feet)
    )
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
