//! The generator behind [`generate_terrain_with_heights`](super::generate_terrain_with_heights):
//! height map, liquids, ground, caves and obstacles, layer by layer.

use fastnoise_lite::{FastNoiseLite, FractalType, NoiseType};
use glam::IVec3;

use super::{LiquidSpan, Terrain, TerrainConfig};
use crate::error::Result;
use crate::world::chunked::{Block, ChunkedWorld};
use crate::world::pick::{SplitMix64, mix};

/// How far below the surface caves are carved: deeper cells stay solid, which keeps the
/// generation time proportional to the surface area rather than the volume.
const CAVE_DEPTH: i32 = 24;
/// The cave noise is sampled every `CAVE_STEP` blocks along each axis and interpolated.
const CAVE_STEP: i32 = 4;
/// Cells whose interpolated cave noise exceeds this are carved.
const CAVE_THRESHOLD: f32 = 0.42;
/// Caves keep a roof this many blocks thick, which makes overhangs rather than craters;
/// where the noise is strong enough, they break through to the surface.
const CAVE_ROOF: i32 = 3;
/// The noise a cave needs to break through its roof to the surface.
const CAVE_OPENING: f32 = 0.62;

pub(super) struct Generator<'a> {
    config: &'a TerrainConfig,
    world: ChunkedWorld,
    /// Per column: the number of ground cells (the top ground block is at `height - 1`).
    heights: Vec<i32>,
    tops: Vec<i32>,
    liquids: Vec<Option<LiquidSpan>>,
}

/// A noise layer with its own seed derived from the world's seed.
fn noise(seed: u64, layer: u64, frequency: f32, octaves: i32) -> FastNoiseLite {
    let mut noise = FastNoiseLite::with_seed(mix(seed ^ mix(layer)) as i32);
    noise.set_noise_type(Some(NoiseType::OpenSimplex2));
    noise.set_frequency(Some(frequency));
    if octaves > 1 {
        noise.set_fractal_type(Some(FractalType::FBm));
        noise.set_fractal_octaves(Some(octaves));
    }
    noise
}

/// `(value - edge) / width`, clamped to `0..=1`: a ramp that is a cliff when `width` is tiny.
#[inline]
fn ramp(value: f32, edge: f32, width: f32) -> f32 {
    ((value - edge) / width).clamp(0.0, 1.0)
}

impl<'a> Generator<'a> {
    pub(super) fn new(config: &'a TerrainConfig) -> Result<Self> {
        let world = ChunkedWorld::with_size(config.size())?;
        let columns = (config.size_x * config.size_z) as usize;
        Ok(Self {
            config,
            world,
            heights: vec![0; columns],
            tops: vec![0; columns],
            liquids: vec![None; columns],
        })
    }

    fn water_level(&self) -> i32 {
        let c = self.config;
        c.min_height + (c.max_height - c.min_height) * 3 / 16
    }

    pub(super) fn height_map(&mut self) {
        let c = self.config;
        let hills = noise(c.seed, 1, c.hill_frequency, 4);
        let plateaus = noise(c.seed, 2, c.cliff_frequency, 2);
        let steepness = noise(c.seed, 3, c.cliff_frequency * 2.5, 1);
        let bumps = noise(c.seed, 4, c.hill_frequency * 12.0, 1);
        let span = (c.max_height - c.min_height) as f32;
        for z in 0..c.size_z {
            for x in 0..c.size_x {
                let (fx, fz) = (x as f32, z as f32);
                let hill = 0.5 * (hills.get_noise_2d(fx, fz) + 1.0);
                // The plateau edge is a vertical cliff where `steepness` is low and a ramp a
                // few blocks wide (a run of 1-block steps) where it is high.
                let width = 0.004 + 0.12 * ramp(steepness.get_noise_2d(fx, fz), -0.1, 0.9);
                let plateau = plateaus.get_noise_2d(fx, fz);
                let tiers = ramp(plateau, 0.1, width) + ramp(plateau, 0.45, width);
                let bump = 1.5 * bumps.get_noise_2d(fx, fz);
                let height = c.min_height as f32 + span * (0.6 * hill + 0.2 * tiers) + bump;
                self.heights[(z * c.size_x + x) as usize] =
                    (height.floor() as i32).clamp(c.min_height, c.max_height);
            }
        }
    }

    /// Plans the liquids (written by [`Generator::pour_liquids`]): lakes fill every column
    /// whose ground is below the water level; lava pools replace the top block of dry,
    /// flat-enough ground where a sparse noise peaks.
    pub(super) fn plan_liquids(&mut self) {
        let c = self.config;
        let water_level = self.water_level();
        let lava = noise(c.seed, 5, 0.03, 1);
        // Lava only in a few volcanic regions, so most of the land is safe to cross.
        let volcanic = noise(c.seed, 7, c.hill_frequency * 1.5, 1);
        for z in 0..c.size_z {
            for x in 0..c.size_x {
                let column = (z * c.size_x + x) as usize;
                let height = self.heights[column];
                self.liquids[column] = if height < water_level {
                    Some(LiquidSpan {
                        block: Block::Water,
                        low: height,
                        high: water_level - 1,
                    })
                } else if height > water_level + 1
                    && volcanic.get_noise_2d(x as f32, z as f32) > 0.4
                    && lava.get_noise_2d(x as f32, z as f32) > 0.75
                {
                    Some(LiquidSpan {
                        block: Block::Lava,
                        low: height - 1,
                        high: height - 1,
                    })
                } else {
                    None
                };
            }
        }
    }

    /// Writes the ground, carving caves, and records each column's top (its liquid included).
    pub(super) fn ground(&mut self) {
        let c = self.config;
        let caves = c.caves.then(|| CaveField::new(c));
        let mut cave_column = Vec::new();
        for z in 0..c.size_z {
            for x in 0..c.size_x {
                let column = (z * c.size_x + x) as usize;
                let height = self.heights[column];
                let liquid = self.liquids[column];
                self.set_column(x, z, 0..height);
                let mut top = height;
                if let Some(caves) = &caves {
                    // Liquids need a floor: no caves right under a pool.
                    let roof = if liquid.is_some() {
                        height - 1 - CAVE_ROOF
                    } else {
                        height - 1
                    };
                    caves.column(x, z, roof / CAVE_STEP + 1, &mut cave_column);
                    let mut open_above = true;
                    for y in ((height - CAVE_DEPTH).max(1)..=roof).rev() {
                        let needed = if y > height - 1 - CAVE_ROOF {
                            CAVE_OPENING
                        } else {
                            CAVE_THRESHOLD
                        };
                        if CaveField::sample(&cave_column, y) > needed {
                            self.write(IVec3::new(x, y, z), Block::Air);
                            if open_above && y == top - 1 {
                                top = y;
                            }
                        } else {
                            open_above = false;
                        }
                    }
                }
                if let Some(span) = liquid {
                    top = top.max(span.high + 1);
                }
                self.tops[column] = top;
            }
        }
    }

    /// Trees (a trunk and a crown of leaves) and stone pillars on dry, uncarved ground.
    pub(super) fn obstacles(&mut self) {
        let c = self.config;
        for z in 0..c.size_z {
            for x in 0..c.size_x {
                let column = (z * c.size_x + x) as usize;
                let mut rng = SplitMix64::new(
                    c.seed ^ mix((u64::from(x as u32) << 32) | u64::from(z as u32)),
                );
                if rng.next_f32() >= c.obstacle_density || self.liquids[column].is_some() {
                    continue;
                }
                let ground = self.heights[column];
                // Only on ground that is still there: caves may have opened the top.
                if self.tops[column] != ground {
                    continue;
                }
                if rng.below(4) == 0 {
                    let tall = 2 + rng.below(4) as i32;
                    for y in ground..ground + tall {
                        self.place(x, y, z);
                    }
                } else {
                    let trunk = 4 + rng.below(3) as i32;
                    let crown = ground + trunk;
                    for y in ground..crown {
                        self.place(x, y, z);
                    }
                    for (dy, radius) in [(-2, 2), (-1, 2), (0, 1), (1, 0_i32)] {
                        for dz in -radius..=radius {
                            for dx in -radius..=radius {
                                let corner = dx.abs() == radius && dz.abs() == radius;
                                if radius > 0 && corner {
                                    continue;
                                }
                                self.place(x + dx, crown + dy, z + dz);
                            }
                        }
                    }
                }
            }
        }
    }

    /// Makes `p` solid if it is inside the world and still air, keeping the column tops.
    fn place(&mut self, x: i32, y: i32, z: i32) {
        let c = self.config;
        if !(0..c.size_x).contains(&x) || !(0..c.size_y).contains(&y) || !(0..c.size_z).contains(&z)
        {
            return;
        }
        let column = (z * c.size_x + x) as usize;
        if self.liquids[column].is_some_and(|span| y <= span.high) {
            return;
        }
        self.write(IVec3::new(x, y, z), Block::Solid);
        self.tops[column] = self.tops[column].max(y + 1);
    }

    /// Writes the liquids planned by [`Generator::plan_liquids`].
    pub(super) fn pour_liquids(&mut self) {
        let c = self.config;
        for z in 0..c.size_z {
            for x in 0..c.size_x {
                if let Some(span) = self.liquids[(z * c.size_x + x) as usize] {
                    let written = self
                        .world
                        .set_column(x, z, span.low..span.high + 1, span.block);
                    debug_assert!(
                        written.is_ok(),
                        "terrain wrote outside its world at {x}, {z}"
                    );
                }
            }
        }
    }

    // Every caller of these writers stays inside the bounds the world was made with.
    #[inline]
    fn write(&mut self, p: IVec3, block: Block) {
        let written = self.world.set(p, block);
        debug_assert!(written.is_ok(), "terrain wrote outside its world at {p}");
    }

    #[inline]
    fn set_column(&mut self, x: i32, z: i32, ys: std::ops::Range<i32>) {
        let written = self.world.set_column(x, z, ys, Block::Solid);
        debug_assert!(
            written.is_ok(),
            "terrain wrote outside its world at {x}, {z}"
        );
    }

    pub(super) fn finish(self) -> Terrain {
        Terrain {
            world: self.world,
            size: self.config.size(),
            tops: self.tops,
            grounds: self.heights,
        }
    }
}

/// 3D cave noise sampled on a coarse lattice and interpolated trilinearly: the lattice
/// costs a small fraction of per-cell noise, and caves are blobs many blocks wide anyway.
struct CaveField {
    dims: IVec3,
    values: Vec<f32>,
}

impl CaveField {
    fn new(config: &TerrainConfig) -> Self {
        let noise = noise(config.seed, 6, config.cave_frequency, 2);
        let dims = IVec3::new(
            config.size_x / CAVE_STEP + 2,
            config.max_height / CAVE_STEP + 2,
            config.size_z / CAVE_STEP + 2,
        );
        let mut values = Vec::with_capacity((dims.x * dims.y * dims.z) as usize);
        for ly in 0..dims.y {
            for lz in 0..dims.z {
                for lx in 0..dims.x {
                    // Caves are flatter than they are wide: y is stretched so the floors
                    // are walkable.
                    values.push(noise.get_noise_3d(
                        (lx * CAVE_STEP) as f32,
                        (ly * CAVE_STEP * 2) as f32,
                        (lz * CAVE_STEP) as f32,
                    ));
                }
            }
        }
        Self { dims, values }
    }

    #[inline]
    fn at(&self, lx: i32, ly: i32, lz: i32) -> f32 {
        self.values[((ly * self.dims.z + lz) * self.dims.x + lx) as usize]
    }

    /// Fills `out[ly]` with the noise of column `(x, z)` at lattice height `ly`, for every
    /// lattice height up to `ly_max`: one bilinear look-up per lattice height, after which
    /// [`CaveField::sample`] only interpolates along y.
    fn column(&self, x: i32, z: i32, ly_max: i32, out: &mut Vec<f32>) {
        let step = CAVE_STEP as f32;
        let (lx, lz) = (x / CAVE_STEP, z / CAVE_STEP);
        let tx = (x % CAVE_STEP) as f32 / step;
        let tz = (z % CAVE_STEP) as f32 / step;
        out.clear();
        out.extend((0..=ly_max.min(self.dims.y - 1)).map(|ly| {
            let near = lerp(self.at(lx, ly, lz), self.at(lx + 1, ly, lz), tx);
            let far = lerp(self.at(lx, ly, lz + 1), self.at(lx + 1, ly, lz + 1), tx);
            lerp(near, far, tz)
        }));
    }

    /// The noise at height `y` of a column prepared by [`CaveField::column`].
    #[inline]
    fn sample(column: &[f32], y: i32) -> f32 {
        let ly = (y / CAVE_STEP) as usize;
        let ty = (y % CAVE_STEP) as f32 / CAVE_STEP as f32;
        lerp(column[ly], column[ly + 1], ty)
    }
}

#[inline]
fn lerp(a: f32, b: f32, t: f32) -> f32 {
    a + (b - a) * t
}
