//! Picking query positions on a surface: [`surface_feet`] and [`pick_pairs`].

use std::ops::RangeInclusive;

use glam::IVec3;

use super::rng::SplitMix64;
use crate::moves::agent::Agent;
use crate::world::{VoxelWorld, is_valid_feet};

/// The y range scanned by [`surface_feet`] in a world without bounds: Minecraft's build
/// limits, `-64 ..= 319`.
pub const UNBOUNDED_SCAN: RangeInclusive<i32> = -64..=319;

/// How many random tries [`pick_pairs`] makes per pair asked for before it gives up.
const TRIES_PER_PAIR: usize = 400;

/// The highest valid feet position of column `(x, z)` for `agent`, if any.
///
/// Scans the column from the top of the world's bounds down (for a world without bounds,
/// from y = 319 down to -64, see [`UNBOUNDED_SCAN`]). The highest position may be a tree
/// top or a cave floor under an opening; it is always a valid feet position (see
/// [`is_valid_feet`]).
///
/// ```
/// use glam::IVec3;
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
    let (low, high) = match world.bounds() {
        Some(bounds) => {
            let inside = (bounds.min.x..bounds.max.x).contains(&x)
                && (bounds.min.z..bounds.max.z).contains(&z);
            if !inside {
                return None;
            }
            // The floor must be inside too, so the lowest feet is one above the bottom.
            (bounds.min.y + 1, bounds.max.y - 1)
        }
        None => (*UNBOUNDED_SCAN.start(), *UNBOUNDED_SCAN.end()),
    };
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
/// `distance` range gives no pairs).
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
    let mut pairs = Vec::with_capacity(count);
    let (near, far) = (*distance.start(), *distance.end());
    if !(near <= far && far >= 0.0 && far.is_finite()) {
        return pairs;
    }
    let (min, max) = match world.bounds() {
        Some(bounds) => (bounds.min, bounds.max),
        None => (IVec3::splat(-512), IVec3::splat(512)),
    };
    let (width, depth) = ((max.x - min.x) as u64, (max.z - min.z) as u64);
    if width == 0 || depth == 0 {
        return pairs;
    }
    let mut rng = SplitMix64::new(seed);
    let mut tries = count.saturating_mul(TRIES_PER_PAIR);
    while pairs.len() < count && tries > 0 {
        tries -= 1;
        let x = min.x + rng.below(width) as i32;
        let z = min.z + rng.below(depth) as i32;
        let Some((dx, dz)) = random_offset(&mut rng, near.max(0.0), far) else {
            continue;
        };
        let Some(start) = surface_feet(world, agent, x, z) else {
            continue;
        };
        let Some(goal) = surface_feet(world, agent, x + dx, z + dz) else {
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
    let rounded = ((dx * dx + dz * dz) as f32).sqrt();
    (near..=far).contains(&rounded).then_some((dx, dz))
}
