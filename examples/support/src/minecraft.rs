//! The work of `examples/minecraft.rs` that depends on the world it is given, bounded so that
//! no world makes it abort or run for minutes: the seeded start/goal pairs on the surface
//! ([`pick_pairs`], at most [`MAX_TRIES`] draws) and the top-down picture of the loaded area
//! ([`Map`], at most [`MAX_PICTURE_PIXELS`] pixels, however far apart the loaded chunks are).

use std::collections::{HashMap, HashSet};
use std::fmt::Write as _;

use voxnav::anvil::{LoadedWorld, MAX_Y, MIN_Y};
use voxnav::world::pick::is_natural_ground;
use voxnav::{Agent, Block, ChunkedWorld, IVec3, VoxelWorld};

use super::picture::{BLACK, Picture};

/// `SplitMix64`: a small seeded generator, so the same seed picks the same pairs everywhere.
struct SplitMix(u64);

impl SplitMix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// The highest valid feet position of column `x`, `z` whose body is in the open air above
/// it (the surface), if any: the cell above the highest cell of `MIN_Y + 1 ..= MAX_Y - 1`
/// that is not passable, when the agent fits there and it is natural ground (not water:
/// [`voxnav::world::pick::is_natural_ground`]).
pub fn surface_feet(world: &ChunkedWorld, agent: &Agent, x: i32, z: i32) -> Option<IVec3> {
    let mut top = MAX_Y;
    // Whole runs of 64 cells at once, from the top down.
    while top > MIN_Y + 1 {
        let y0 = (top - 64).max(MIN_Y + 1);
        let count = (top - y0) as u32;
        let inside = if count == 64 {
            u64::MAX
        } else {
            (1u64 << count) - 1
        };
        let blocked = !world.column(x, z, y0, count).passable & inside;
        if blocked != 0 {
            let y = y0 + 63 - blocked.leading_zeros() as i32;
            let feet = IVec3::new(x, y + 1, z);
            return (agent.is_valid_position(world, feet) && is_natural_ground(world, feet))
                .then_some(feet);
        }
        top = y0;
    }
    None
}

/// The most start/goal draws [`pick_pairs`] makes, whatever `--pairs` asks: 200 per pair up
/// to 10 000 pairs. Each draw costs a few column reads, so giving up costs about a second.
pub const MAX_TRIES: usize = 2_000_000;

/// What [`pick_pairs`] found, and why the draws that gave no pair failed.
#[derive(Debug, Default)]
pub struct PickedPairs {
    /// Start and goal feet positions.
    pub pairs: Vec<(IVec3, IVec3)>,
    /// Draws made.
    pub tries: usize,
    /// Draws whose start column had no surface.
    pub starts_without_surface: usize,
    /// Draws whose goal column lay outside the loaded chunks.
    pub goals_outside: usize,
    /// Draws whose goal column (loaded) had no surface.
    pub goals_without_surface: usize,
    /// Draws whose goal column lay in a loaded chunk with fewer rings of loaded neighbours
    /// than [`PickedPairs::rings`].
    pub goals_near_border: usize,
    /// The rings of loaded chunks (0 to [`TICKING_RINGS`]) around every chunk that holds a
    /// start or a goal: the most that any loaded chunk has (see [`pick_pairs`]).
    pub rings: u32,
}

impl PickedPairs {
    /// Why fewer pairs than `asked` were found, in words naming the figures, or `None` when
    /// all were.
    pub fn shortfall(
        &self,
        asked: usize,
        loaded: &LoadedWorld,
        max_distance: i32,
    ) -> Option<String> {
        if self.pairs.len() >= asked {
            return None;
        }
        let (width, depth) = loaded_span(loaded);
        let mut why = format!(
            "found {} of {asked} start/goal pairs in {} draws: {} starts had no surface \
             position, {} goals fell outside the loaded chunks, {} goals fell in loaded chunks \
             with fewer than {} rings of loaded neighbours, {} goals had no surface position",
            self.pairs.len(),
            self.tries,
            self.starts_without_surface,
            self.goals_outside,
            self.goals_near_border,
            self.rings,
            self.goals_without_surface,
        );
        if self.goals_outside * 2 > self.tries {
            let _ = write!(
                why,
                "; the loaded chunks span {width} x {depth} blocks, so most goals up to \
                 --max-distance {max_distance} blocks away miss them: try a smaller one"
            );
        }
        Some(why)
    }
}

/// The x and z extent, in blocks, of the box around the loaded chunks.
fn loaded_span(loaded: &LoadedWorld) -> (i64, i64) {
    let chunks = &loaded.loaded_chunks;
    let span = |axis: fn(&(i32, i32)) -> i32| {
        let lo = chunks.iter().map(axis).min().unwrap_or(0);
        let hi = chunks.iter().map(axis).max().unwrap_or(-1);
        (i64::from(hi) - i64::from(lo) + 1) * 16
    };
    (span(|c| c.0), span(|c| c.1))
}

/// The rings of loaded neighbours around a chunk that mobs need to walk there: 2.
///
/// The game moves mobs only in "entity ticking" chunks. A chunk's load level grows by one
/// per chunk away from what keeps it loaded (a player, the spawn area), in squares; level 33
/// is a border chunk (loaded, nothing ticks), 32 a ticking chunk (blocks tick, entities do
/// not), 31 and below entity ticking (everything runs, mobs wander). So the outermost ring of
/// a loaded area ticks no entities, nor does the ring inside it: a chunk where mobs walk
/// has at least 2 rings of loaded chunks around it. Source: "1.14.x Chunk Loading", an
/// overview of the ticket system tested in 1.14.4,
/// <https://gist.github.com/Drovolon/24bfaae00d57e7a8ca64b792e14fa7c6> (the levels have not
/// changed since).
pub const TICKING_RINGS: u32 = 2;

/// How many complete rings of loaded chunks, up to [`TICKING_RINGS`], surround chunk `chunk`
/// (ring `r`: the chunks at Chebyshev distance `r`).
fn loaded_rings(loaded: &HashSet<(i32, i32)>, chunk: (i32, i32)) -> u32 {
    let ring_loaded = |r: i32| {
        (-r..=r).all(|d| {
            [(d, -r), (d, r), (-r, d), (r, d)].iter().all(|&(dx, dz)| {
                // Chunk coordinates are block coordinates / 16: no sum overflows.
                loaded.contains(&(chunk.0 + dx, chunk.1 + dz))
            })
        })
    };
    (1..=TICKING_RINGS as i32)
        .take_while(|&r| ring_loaded(r))
        .count() as u32
}

/// Start/goal pairs on the surface of the loaded chunks: a start in a random loaded column,
/// a goal at most `max_distance` blocks away in x and z, both valid feet positions; `count`
/// of them from `seed`, or fewer after `min(200 * count, MAX_TRIES)` draws.
///
/// Both ends lie where mobs walk: in chunks with [`TICKING_RINGS`] rings of loaded
/// neighbours (entity ticking in the game). A world with no such chunk has its pairs in
/// chunks with 1 ring, and one without those in any loaded chunk, so that a world of a
/// single loaded chunk still has ground to route on. [`PickedPairs::rings`] says which.
pub fn pick_pairs(
    loaded: &LoadedWorld,
    agent: &Agent,
    count: usize,
    seed: u64,
    max_distance: i32,
) -> PickedPairs {
    let mut rng = SplitMix(seed);
    let loaded_set: HashSet<(i32, i32)> = loaded.loaded_chunks.iter().copied().collect();
    let rings: HashMap<(i32, i32), u32> = loaded
        .loaded_chunks
        .iter()
        .map(|&chunk| (chunk, loaded_rings(&loaded_set, chunk)))
        .collect();
    let best = rings.values().copied().max().unwrap_or(0);
    // In the order the world lists them, so that a seed picks the same pairs every run.
    let chunks: Vec<(i32, i32)> = loaded
        .loaded_chunks
        .iter()
        .copied()
        .filter(|chunk| rings[chunk] >= best)
        .collect();
    let mut found = PickedPairs {
        pairs: Vec::with_capacity(count.min(MAX_TRIES)),
        rings: best,
        ..PickedPairs::default()
    };
    if chunks.is_empty() {
        return found;
    }
    let max_tries = count.saturating_mul(200).min(MAX_TRIES);
    let span = u64::from(max_distance.unsigned_abs()) * 2 + 1;
    while found.pairs.len() < count && found.tries < max_tries {
        found.tries += 1;
        let (cx, cz) = chunks[rng.below(chunks.len() as u64) as usize];
        let x = cx * 16 + rng.below(16) as i32;
        let z = cz * 16 + rng.below(16) as i32;
        let Some(start) = surface_feet(&loaded.world, agent, x, z) else {
            found.starts_without_surface += 1;
            continue;
        };
        let gx = x.saturating_add(rng.below(span) as i32 - max_distance);
        let gz = z.saturating_add(rng.below(span) as i32 - max_distance);
        // An unloaded column has no surface (it is all barrier): a set lookup says so
        // without reading the column.
        match rings.get(&(gx >> 4, gz >> 4)) {
            None => {
                found.goals_outside += 1;
                continue;
            }
            Some(&around) if around < best => {
                found.goals_near_border += 1;
                continue;
            }
            Some(_) => {}
        }
        let Some(goal) = surface_feet(&loaded.world, agent, gx, gz) else {
            found.goals_without_surface += 1;
            continue;
        };
        if goal != start {
            found.pairs.push((start, goal));
        }
    }
    found
}

/// The most pixels the picture of the loaded area may have: 16 Mi (a 4096 x 4096 picture,
/// 48 MiB of RGB). Loaded chunks farther apart are drawn at several blocks per pixel; before
/// this cap, regions 0,0 and 1000,1000 asked for a 786 GB picture.
pub const MAX_PICTURE_PIXELS: u64 = 16 << 20;

/// The top-down picture of the loaded area, RGB, `scale` x `scale` columns per pixel.
pub struct Map {
    /// The block x of the picture's left edge.
    pub min_x: i32,
    /// The block z of the picture's top edge.
    pub min_z: i32,
    /// Columns per pixel along x and along z: 1 unless the loaded area is too large.
    pub scale: i32,
    /// The picture.
    pub image: Picture,
}

impl Map {
    /// The picture of `loaded`'s chunks: each pixel takes the colour of one column of a
    /// loaded chunk under it (see [`column_colour`]), unloaded areas are black.
    pub fn new(loaded: &LoadedWorld) -> Map {
        let chunks = &loaded.loaded_chunks;
        let min_cx = chunks.iter().map(|c| c.0).min().unwrap_or(0);
        let min_cz = chunks.iter().map(|c| c.1).min().unwrap_or(0);
        let (min_x, min_z) = (min_cx * 16, min_cz * 16);
        let (width, depth) = loaded_span(loaded);
        let (width, depth) = (width.max(1) as u64, depth.max(1) as u64);
        let scale = picture_scale(width, depth);
        let mut map = Map {
            min_x,
            min_z,
            scale: scale as i32,
            image: Picture::new(
                width.div_ceil(scale) as u32,
                depth.div_ceil(scale) as u32,
                BLACK,
            ),
        };
        let world = &loaded.world;
        for &(cx, cz) in chunks {
            // The pixels this chunk covers, each coloured from a column inside the chunk.
            let (x0, z0) = (cx * 16, cz * 16);
            let pixels = |lo: i32, origin: i32| {
                let first = (i64::from(lo) - i64::from(origin)) / scale as i64;
                let last = (i64::from(lo) + 15 - i64::from(origin)) / scale as i64;
                first..=last
            };
            for pz in pixels(z0, min_z) {
                for px in pixels(x0, min_x) {
                    let column = |pixel: i64, origin: i32, lo: i32| {
                        (i64::from(origin) + pixel * scale as i64)
                            .clamp(i64::from(lo), i64::from(lo) + 15) as i32
                    };
                    let (x, z) = (column(px, min_x, x0), column(pz, min_z, z0));
                    map.image.set(px, pz, column_colour(world, x, z));
                }
            }
        }
        map
    }

    /// The pixel of the column of `p`.
    fn pixel(&self, p: IVec3) -> (i64, i64) {
        let scale = i64::from(self.scale);
        (
            (i64::from(p.x) - i64::from(self.min_x)).div_euclid(scale),
            (i64::from(p.z) - i64::from(self.min_z)).div_euclid(scale),
        )
    }

    /// Colours the pixel of the column of `p`.
    pub fn put(&mut self, p: IVec3, colour: [u8; 3]) {
        let (x, z) = self.pixel(p);
        self.image.set(x, z, colour);
    }

    /// Marks a route's end at `p` as the terrain picture does: a disc for a start, a square
    /// for a goal, in `colour` with a black outline, and a label with the route's `number`
    /// beside it.
    pub fn mark(&mut self, p: IVec3, number: usize, start: bool, colour: [u8; 3]) {
        let (x, z) = self.pixel(p);
        if start {
            self.image.disc(x as f32 + 0.5, z as f32 + 0.5, 4.0, BLACK);
            self.image.disc(x as f32 + 0.5, z as f32 + 0.5, 3.0, colour);
        } else {
            self.image.fill_rect(x - 4, z - 4, 9, 9, BLACK);
            self.image.fill_rect(x - 3, z - 3, 7, 7, colour);
        }
        self.image.label(x + 5, z - 9, &number.to_string(), 1);
    }
}

/// The fewest columns per pixel (along each axis) that draw `width` x `depth` columns in at
/// most [`MAX_PICTURE_PIXELS`] pixels.
pub fn picture_scale(width: u64, depth: u64) -> u64 {
    let pixels = |scale: u64| width.div_ceil(scale) * depth.div_ceil(scale);
    // The square root of the ratio is the answer up to rounding; step up from just below it.
    let ratio = (width as f64 * depth as f64 / MAX_PICTURE_PIXELS as f64).sqrt();
    let mut scale = (ratio.floor() as u64).max(1);
    while pixels(scale) > MAX_PICTURE_PIXELS {
        scale += 1;
    }
    scale
}

/// The colour of a column seen from above: its top floor (the highest cell that is not
/// passable, or is standable), shaded by height, or the water or lava over it.
pub fn column_colour(world: &ChunkedWorld, x: i32, z: i32) -> [u8; 3] {
    let mut y0 = MAX_Y - 64;
    loop {
        // Whole runs of 64 cells at once: air, water, doors and cobwebs are passable and not
        // standable; the floor is the highest cell that is anything else.
        let bits = world.column(x, z, y0, 64);
        let open = bits.passable & !bits.standable;
        if open != u64::MAX {
            let top = 63 - (!open).leading_zeros() as i32;
            let floor = IVec3::new(x, y0 + top, z);
            let shade = (f64::from(floor.y - 63) * 2.0 + 128.0).clamp(30.0, 250.0) as u8;
            let above = world.get(floor + IVec3::Y).unwrap_or(Block::Air);
            return match (world.get(floor).unwrap_or(Block::Barrier), above) {
                (_, Block::Water) => [30, 70, (shade / 2).saturating_add(120)],
                (Block::Lava, _) => [240, 110, 20],
                (Block::Hazard, _) => [200, 40, 40],
                (Block::Barrier, _) => [0, 0, 0],
                _ => [shade / 2 + 30, shade, shade / 2 + 30],
            };
        }
        if y0 <= MIN_Y {
            return [0, 0, 0];
        }
        y0 = (y0 - 64).max(MIN_Y);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_scale_is_the_smallest_that_fits() {
        assert_eq!(picture_scale(512, 512), 1);
        assert_eq!(picture_scale(4096, 4096), 1);
        assert_eq!(picture_scale(4097, 4096), 2);
        // Regions 0,0 and 1000,1000: 1001 regions of 512 blocks a side.
        let side = 1001 * 512;
        let scale = picture_scale(side, side);
        assert!(side.div_ceil(scale).pow(2) <= MAX_PICTURE_PIXELS);
        assert!(side.div_ceil(scale - 1).pow(2) > MAX_PICTURE_PIXELS);
        // A long thin strip.
        let scale = picture_scale(1 << 30, 16);
        assert!((1u64 << 30).div_ceil(scale) * 16u64.div_ceil(scale) <= MAX_PICTURE_PIXELS);
    }

    /// Pairs lie where mobs walk: in a square of 7 x 7 loaded chunks, both ends of every pair
    /// lie in its middle 3 x 3 chunks (2 rings of loaded chunks around each); in a square of
    /// 3 x 3, none has 2 rings, so they lie in the middle chunk (1 ring); a world of one
    /// loaded chunk still gives pairs in it. The ground is flat everywhere, unloaded chunks
    /// included, so only the ring rule keeps the pairs in.
    #[test]
    fn pairs_lie_in_chunks_with_the_most_rings_of_loaded_neighbours() {
        let mut world = ChunkedWorld::new();
        world
            .fill(
                IVec3::new(-32, 0, -32),
                IVec3::new(143, 3, 143),
                Block::Solid,
            )
            .unwrap();
        let square = |from: i32, to: i32| -> Vec<(i32, i32)> {
            (from..=to)
                .flat_map(|cx| (from..=to).map(move |cz| (cx, cz)))
                .collect()
        };
        let agent = Agent::mob("zombie").unwrap();
        for (chunks, rings, inner) in [
            (square(0, 6), 2, 2..=4),
            (square(0, 2), 1, 1..=1),
            (square(3, 3), 0, 3..=3),
        ] {
            let loaded = LoadedWorld {
                world: world.clone(),
                loaded_chunks: chunks,
                report: voxnav::anvil::LoadReport::default(),
            };
            let picked = pick_pairs(&loaded, &agent, 60, 5, 40);
            assert_eq!(picked.rings, rings);
            assert_eq!(picked.pairs.len(), 60, "{picked:?}");
            for &(start, goal) in &picked.pairs {
                for feet in [start, goal] {
                    assert!(inner.contains(&(feet.x >> 4)), "{feet} with {rings} rings");
                    assert!(inner.contains(&(feet.z >> 4)), "{feet} with {rings} rings");
                    assert_eq!(feet.y, 4);
                }
            }
            // Goals that fell nearer the edge were drawn and refused, not never drawn.
            assert!(rings == 0 || picked.goals_near_border > 0, "{picked:?}");
        }
    }
}
