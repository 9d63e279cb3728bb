//! Picking query positions on a surface: [`surface_feet`] and [`pick_pairs`].

use std::ops::RangeInclusive;

use glam::IVec3;

use super::rng::SplitMix64;
use crate::moves::agent::Agent;
use crate::world::key::{KEY_MAX, KEY_MIN};
use crate::world::{VoxelWorld, is_valid_feet};

/// The y range scanned by [`surface_feet`] in a world without bounds: Minecraft's build
/// limits, `-64 ..= 319`.
pub const UNBOUNDED_SCAN: RangeInclusive<i32> = -64..=319;

/// How many random tries [`pick_pairs`] makes per pair asked for before it gives up.
const TRIES_PER_PAIR: usize = 400;

/// The most pairs [`pick_pairs`] returns, whatever count is asked for: 2^20 pairs take 24 MiB,
/// more than any benchmark or crowd needs, and a larger count (up to `usize::MAX`) would only
/// fill memory.
pub const MAX_PAIRS: usize = 1 << 20;

/// The highest valid feet position of column `(x, z)` for `agent`, if any.
///
/// Scans the column from the top of the world's bounds down (for a world without bounds,
/// from y = 319 down to -64, see [`UNBOUNDED_SCAN`]). The highest position may be a tree
/// top or a cave floor under an opening; it is always a valid feet position (see
/// [`is_valid_feet`]).
///
/// ```
/// use voxnav::IVec3;
/// use voxnav::{Agent, Block, ChunkedWorld};
/// use voxnav::terrain::surface_feet;
///
/// let mut world = ChunkedWorld::with_size(IVec3::new(4, 8, 4))?;
/// world.fill(IVec3::ZERO, IVec3::new(3, 2, 3), Block::Solid)?;
/// assert_eq!(surface_feet(&world, &Agent::default(), 1, 1), Some(IVec3::new(1, 3, 1)));
/// assert_eq!(surface_feet(&world, &Agent::default(), 9, 1), None);
/// # Ok::<(), voxnav::Error>(())
/// ```
pub fn surface_feet<W: VoxelWorld + ?Sized>(
    world: &W,
    agent: &Agent,
    x: i32,
    z: i32,
) -> Option<IVec3> {
    // Valid feet positions lie in the key range: no column outside it has one.
    if !(KEY_MIN.x..=KEY_MAX.x).contains(&x) || !(KEY_MIN.z..=KEY_MAX.z).contains(&z) {
        return None;
    }
    let (low, high) = match world.bounds() {
        Some(bounds) => {
            let inside = (bounds.min.x..bounds.max.x).contains(&x)
                && (bounds.min.z..bounds.max.z).contains(&z);
            if !inside {
                return None;
            }
            // The floor must be inside too, so the lowest feet is one above the bottom.
            (
                bounds.min.y.saturating_add(1),
                bounds.max.y.saturating_sub(1),
            )
        }
        None => (*UNBOUNDED_SCAN.start(), *UNBOUNDED_SCAN.end()),
    };
    // Valid feet positions lie in the key range: scanning beyond it would find none.
    let (low, high) = (low.max(KEY_MIN.y), high.min(KEY_MAX.y));
    (low..=high)
        .rev()
        .map(|y| IVec3::new(x, y, z))
        .find(|&feet| is_valid_feet(world, feet, agent.height))
}

/// `count` deterministic `(start, goal)` pairs of surface feet positions (see
/// [`surface_feet`]) whose horizontal Euclidean distance `sqrt(dx^2 + dz^2)` lies in
/// `distance`, in blocks.
///
/// The same world, agent, seed, count and range give the same pairs on every machine (only
/// exact arithmetic picks them). Pairs are not checked for reachability: that is the
/// search's job. Columns are drawn inside the world's bounds; a world without bounds draws
/// them from `-512 ..= 511` on x and z.
///
/// Returns fewer than `count` pairs only when the world offers too few: after
/// `400 * count` failed tries it stops, so it never loops forever (an empty or reversed
/// `distance` range gives no pairs). At most [`MAX_PAIRS`] pairs are returned. Any range of
/// distances is accepted: offsets that would leave the `i32` range are simply not drawn.
///
/// ```
/// use voxnav::Agent;
/// use voxnav::terrain::{TerrainConfig, generate_terrain_with_heights, pick_pairs};
///
/// let terrain = generate_terrain_with_heights(&TerrainConfig::default().with_size(64, 48, 64))?;
/// let pairs = pick_pairs(&terrain, &Agent::default(), 9, 5, 10.0..=20.0);
/// assert_eq!(pairs.len(), 5);
/// for (start, goal) in pairs {
///     let d = ((start.x - goal.x).pow(2) as f32 + (start.z - goal.z).pow(2) as f32).sqrt();
///     assert!((10.0..=20.0).contains(&d));
/// }
/// # Ok::<(), voxnav::Error>(())
/// ```
pub fn pick_pairs<W: VoxelWorld + ?Sized>(
    world: &W,
    agent: &Agent,
    seed: u64,
    count: usize,
    distance: RangeInclusive<f32>,
) -> Vec<(IVec3, IVec3)> {
    let count = count.min(MAX_PAIRS);
    let mut pairs = Vec::with_capacity(count);
    let (near, far) = (*distance.start(), *distance.end());
    if !(near <= far && far >= 0.0 && far.is_finite()) {
        return pairs;
    }
    let (min, max) = match world.bounds() {
        Some(bounds) => (bounds.min, bounds.max),
        None => (IVec3::splat(-512), IVec3::splat(512)),
    };
    // Differences in 64 bits: bounds may span the whole i32 range.
    let side = |lo: i32, hi: i32| (i64::from(hi) - i64::from(lo)).max(0) as u64;
    let (width, depth) = (side(min.x, max.x), side(min.z, max.z));
    if width == 0 || depth == 0 {
        return pairs;
    }
    let mut rng = SplitMix64::new(seed);
    let mut tries = count.saturating_mul(TRIES_PER_PAIR);
    while pairs.len() < count && tries > 0 {
        tries -= 1;
        // Below the side, so inside the bounds and inside i32.
        let x = (i64::from(min.x) + rng.below(width) as i64) as i32;
        let z = (i64::from(min.z) + rng.below(depth) as i64) as i32;
        let Some((dx, dz)) = random_offset(&mut rng, near.max(0.0), far) else {
            continue;
        };
        let (Some(goal_x), Some(goal_z)) = (x.checked_add(dx), z.checked_add(dz)) else {
            continue;
        };
        let Some(start) = surface_feet(world, agent, x, z) else {
            continue;
        };
        let Some(goal) = surface_feet(world, agent, goal_x, goal_z) else {
            continue;
        };
        pairs.push((start, goal));
    }
    pairs
}

/// A horizontal offset whose length lies in `near..=far`: a uniform length and a uniform
/// direction, drawn without trigonometry (whose last bits differ between platforms).
fn random_offset(rng: &mut SplitMix64, near: f32, far: f32) -> Option<(i32, i32)> {
    let length = near + (far - near) * rng.next_f32();
    // A point in the unit disc by rejection gives a uniform direction.
    let (u, v) = (2.0 * rng.next_f32() - 1.0, 2.0 * rng.next_f32() - 1.0);
    let norm = (u * u + v * v).sqrt();
    if !(0.01..=1.0).contains(&norm) {
        return None;
    }
    let (dx, dz) = (
        (u / norm * length).round() as i32,
        (v / norm * length).round() as i32,
    );
    // Squared in 64 bits (a far range gives offsets near i32::MAX); below 2^31 the `f32`
    // conversion rounds exactly as it did from i32, so the pairs drawn do not change.
    let squared = u64::from(dx.unsigned_abs()).pow(2) + u64::from(dz.unsigned_abs()).pow(2);
    let rounded = (squared as f32).sqrt();
    (near..=far).contains(&rounded).then_some((dx, dz))
}
