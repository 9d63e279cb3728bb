//! Deterministic procedural terrain (fastnoise-lite), and helpers to pick queries on it.
//!
//! [`generate_terrain`] turns a [`TerrainConfig`] into a bounded [`ChunkedWorld`] with rolling
//! hills, 1-block terraces, plateaus behind real cliffs, caves and overhangs carved by 3D
//! noise, trees and stone pillars, lakes of [`Block::Water`] and pools of [`Block::Lava`]:
//! real blocks, with the meaning every world gives them (the agent wades through water at
//! [`MoveCosts::water`](crate::MoveCosts::water) a move, never enters lava, and pays
//! [`MoveCosts::danger`](crate::MoveCosts::danger) next to it).
//! [`generate_terrain_with_heights`] returns the same blocks as a [`Terrain`], with the
//! generator's height map. [`surface_feet`] and [`pick_pairs`] choose start and goal
//! positions on the surface.
//!
//! The same config gives the same world on every machine: the noise and the generator use
//! only basic `f32` arithmetic (no `sin`, `exp` or `powf`, whose last bits vary between
//! platforms), and every random choice comes from [`SplitMix64`].
//!
//! ```
//! use voxnav::terrain::{TerrainConfig, generate_terrain_with_heights, pick_pairs};
//! use voxnav::{Agent, MoveCosts, SearchOptions};
//! use voxnav::engine::Pathfinder;
//!
//! let config = TerrainConfig::default().with_seed(7).with_size(64, 48, 64);
//! let terrain = generate_terrain_with_heights(&config)?;
//! let agent = Agent::default();
//! let mut pathfinder = Pathfinder::new(agent, MoveCosts::default())?;
//! for (start, goal) in pick_pairs(&terrain, &agent, 1, 4, 8.0..=24.0) {
//!     let route = pathfinder.find_path(&terrain, start, goal, &SearchOptions::default())?;
//!     println!("{start} -> {goal}: {}", route.status);
//! }
//! # Ok::<(), voxnav::Error>(())
//! ```

use glam::IVec3;

use crate::error::{Error, Result};
use crate::world::chunked::{Block, ChunkedWorld};
use crate::world::{Bounds, ColumnBits, TerrainFlags, VoxelWorld};

// The pair picker and its generator live in `world::pick`, so that worlds without this
// feature (loaded Minecraft saves) use them too; their names here stay.
mod generator;

use self::generator::Generator;
pub use crate::world::pick::{MAX_PAIRS, SplitMix64, UNBOUNDED_SCAN, pick_pairs, surface_feet};

/// Settings of the procedural terrain. The defaults make the built-in 512 x 128 x 512 world.
///
/// ```
/// use voxnav::terrain::TerrainConfig;
/// let config = TerrainConfig::default().with_seed(42).with_size(256, 96, 256).with_caves(false);
/// assert_eq!((config.size_x, config.size_y, config.size_z), (256, 96, 256));
/// assert_eq!((config.min_height, config.max_height), (18, 72));
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TerrainConfig {
    /// The seed: the same seed (and settings) gives the same world. Defaults to 1337.
    pub seed: u64,
    /// Width of the world along x, in blocks. Defaults to 512.
    pub size_x: i32,
    /// Height of the world along y, in blocks. Defaults to 128.
    pub size_y: i32,
    /// Depth of the world along z, in blocks. Defaults to 512.
    pub size_z: i32,
    /// The lowest ground surface: the floor of the deepest valley has its top block at
    /// `min_height - 1`. Defaults to 24.
    pub min_height: i32,
    /// The highest ground surface, plateaus included (trees and pillars stand above it).
    /// At most `size_y - 3`, so that an agent fits on top. Defaults to 96.
    pub max_height: i32,
    /// Frequency of the rolling hills, in cycles per block: smaller means wider hills.
    /// Defaults to 0.004.
    pub hill_frequency: f32,
    /// Frequency of the plateaus, whose edges are cliffs or ramps. Defaults to 0.006.
    pub cliff_frequency: f32,
    /// Frequency of the 3D cave noise. Defaults to 0.04.
    pub cave_frequency: f32,
    /// Whether caves and overhangs are carved. Defaults to `true`.
    pub caves: bool,
    /// The chance that a dry ground column grows a tree or a stone pillar, in `0.0..=1.0`.
    /// Defaults to 0.004.
    pub obstacle_density: f32,
    /// Whether lakes ([`Block::Water`]) and lava pools ([`Block::Lava`]) appear. Defaults to
    /// `true`.
    pub hazards: bool,
}

impl Default for TerrainConfig {
    fn default() -> Self {
        Self {
            seed: 1337,
            size_x: 512,
            size_y: 128,
            size_z: 512,
            min_height: 24,
            max_height: 96,
            hill_frequency: 0.004,
            cliff_frequency: 0.006,
            cave_frequency: 0.04,
            caves: true,
            obstacle_density: 0.004,
            hazards: true,
        }
    }
}

/// The most columns (`size_x * size_z`) a generated world may have: 8192 x 8192.
pub const MAX_TERRAIN_COLUMNS: i64 = 1 << 26;

impl TerrainConfig {
    /// Sets [`TerrainConfig::seed`].
    #[must_use]
    pub const fn with_seed(mut self, seed: u64) -> Self {
        self.seed = seed;
        self
    }

    /// Sets the size of the world in blocks, and scales the height range by
    /// `y / size_y` so that the landscape keeps its proportions (set your own range with
    /// [`TerrainConfig::with_height_range`] afterwards). Defaults to 512 x 128 x 512.
    #[must_use]
    pub const fn with_size(mut self, x: i32, y: i32, z: i32) -> Self {
        if self.size_y > 0 && y > 0 {
            self.min_height = (self.min_height as i64 * y as i64 / self.size_y as i64) as i32;
            self.max_height = (self.max_height as i64 * y as i64 / self.size_y as i64) as i32;
        }
        self.size_x = x;
        self.size_y = y;
        self.size_z = z;
        self
    }

    /// Sets [`TerrainConfig::min_height`] and [`TerrainConfig::max_height`].
    /// Defaults to 24 and 96.
    #[must_use]
    pub const fn with_height_range(mut self, min_height: i32, max_height: i32) -> Self {
        self.min_height = min_height;
        self.max_height = max_height;
        self
    }

    /// Sets [`TerrainConfig::hill_frequency`]. Defaults to 0.004.
    #[must_use]
    pub const fn with_hill_frequency(mut self, frequency: f32) -> Self {
        self.hill_frequency = frequency;
        self
    }

    /// Sets [`TerrainConfig::cliff_frequency`]. Defaults to 0.006.
    #[must_use]
    pub const fn with_cliff_frequency(mut self, frequency: f32) -> Self {
        self.cliff_frequency = frequency;
        self
    }

    /// Sets [`TerrainConfig::cave_frequency`]. Defaults to 0.04.
    #[must_use]
    pub const fn with_cave_frequency(mut self, frequency: f32) -> Self {
        self.cave_frequency = frequency;
        self
    }

    /// Sets [`TerrainConfig::caves`]. Defaults to `true`.
    #[must_use]
    pub const fn with_caves(mut self, caves: bool) -> Self {
        self.caves = caves;
        self
    }

    /// Sets [`TerrainConfig::obstacle_density`]. Defaults to 0.004.
    #[must_use]
    pub const fn with_obstacle_density(mut self, density: f32) -> Self {
        self.obstacle_density = density;
        self
    }

    /// Sets [`TerrainConfig::hazards`]. Defaults to `true`.
    #[must_use]
    pub const fn with_hazards(mut self, hazards: bool) -> Self {
        self.hazards = hazards;
        self
    }

    /// The world's size as a vector.
    #[must_use]
    pub const fn size(&self) -> IVec3 {
        IVec3::new(self.size_x, self.size_y, self.size_z)
    }

    /// Checks the settings.
    ///
    /// # Errors
    /// [`Error::InvalidSetting`], naming the setting, when a size is not positive, the world
    /// has more than [`MAX_TERRAIN_COLUMNS`] columns, the height range is not
    /// `1 <= min_height <= max_height <= size_y - 3`, a frequency is not in `(0, 1]`, or the
    /// obstacle density is not in `[0, 1]`.
    pub fn validate(&self) -> Result<()> {
        let bad = |message: String| Err(Error::InvalidSetting(message));
        if self.size_x < 1 || self.size_y < 1 || self.size_z < 1 {
            return bad(format!(
                "terrain size {} x {} x {} must be at least 1 block along each axis",
                self.size_x, self.size_y, self.size_z
            ));
        }
        if i64::from(self.size_x) * i64::from(self.size_z) > MAX_TERRAIN_COLUMNS {
            return bad(format!(
                "terrain size {} x {} has more than {MAX_TERRAIN_COLUMNS} columns",
                self.size_x, self.size_z
            ));
        }
        if self.min_height < 1 || self.min_height > self.max_height {
            return bad(format!(
                "terrain height range {}..={} must start at 1 or more and not be empty",
                self.min_height, self.max_height
            ));
        }
        if self.max_height > self.size_y - 3 {
            return bad(format!(
                "terrain max_height {} leaves no room for an agent in a world {} blocks tall \
                 (at most {} fits)",
                self.max_height,
                self.size_y,
                self.size_y - 3
            ));
        }
        for (name, frequency) in [
            ("hill_frequency", self.hill_frequency),
            ("cliff_frequency", self.cliff_frequency),
            ("cave_frequency", self.cave_frequency),
        ] {
            if !(frequency > 0.0 && frequency <= 1.0) {
                return bad(format!(
                    "terrain {name} is {frequency}; it must be above 0 and at most 1"
                ));
            }
        }
        if !(0.0..=1.0).contains(&self.obstacle_density) {
            return bad(format!(
                "terrain obstacle_density is {}; it must be between 0 and 1",
                self.obstacle_density
            ));
        }
        Ok(())
    }
}

/// The liquid cells of one column: `block` ([`Block::Water`] or [`Block::Lava`]) from `low` to
/// `high`, both inclusive.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct LiquidSpan {
    block: Block,
    low: i32,
    high: i32,
}

/// A generated world, and the height map the generator made it from.
///
/// The blocks are the whole story for walking: lakes are [`Block::Water`] and lava pools
/// [`Block::Lava`], with the meaning every [`ChunkedWorld`] gives them (see the table of
/// [`Block`] and the rules of [`crate::moves`]): the agent wades through water, paying
/// [`MoveCosts::water`](crate::MoveCosts::water) per move, never enters lava, and pays
/// [`MoveCosts::danger`](crate::MoveCosts::danger) next to it. `Terrain` implements
/// [`VoxelWorld`] by asking its world, so a search over `&terrain`, over
/// [`Terrain::world`] or over the [`ChunkedWorld`] of [`generate_terrain`] gives the same
/// answers. What it adds is what only the generator knows: each column's ground height
/// before caves and obstacles ([`Terrain::ground`]) and its top block ([`Terrain::top`]),
/// for choosing where NPCs start and for drawing maps.
#[derive(Debug, Clone)]
pub struct Terrain {
    world: ChunkedWorld,
    size: IVec3,
    /// Per column (`z * size_x + x`): the highest non-air cell plus one, 0 for none.
    tops: Vec<i32>,
    /// Per column: the height map, the y just above the generated ground.
    grounds: Vec<i32>,
}

impl Terrain {
    /// The block storage.
    #[must_use]
    pub fn world(&self) -> &ChunkedWorld {
        &self.world
    }

    /// The block storage, consuming the terrain.
    #[must_use]
    pub fn into_world(self) -> ChunkedWorld {
        self.world
    }

    /// The world's size.
    #[must_use]
    pub fn size(&self) -> IVec3 {
        self.size
    }

    #[inline]
    fn column_index(&self, x: i32, z: i32) -> Option<usize> {
        ((0..self.size.x).contains(&x) && (0..self.size.z).contains(&z))
            .then(|| (z * self.size.x + x) as usize)
    }

    /// The y of the highest non-air cell of column `(x, z)` (ground, tree, pillar or
    /// liquid), or `None` for an empty column or one outside the world.
    #[must_use]
    pub fn top(&self, x: i32, z: i32) -> Option<i32> {
        self.column_index(x, z)
            .map(|c| self.tops[c] - 1)
            .filter(|&y| y >= 0)
    }

    /// The y just above the ground of column `(x, z)` as the height map made it, before
    /// caves, liquids, trees and pillars: where an agent standing on open ground has its
    /// feet. `None` outside the world.
    #[must_use]
    pub fn ground(&self, x: i32, z: i32) -> Option<i32> {
        self.column_index(x, z).map(|c| self.grounds[c])
    }

    /// Whether `feet` stands on open, dry ground: on the solid top block of its column at the
    /// height the height map made (not on a tree, a pillar, a cave floor, in a lake or on
    /// lava): the natural place for an NPC to start or end a trip.
    #[must_use]
    pub fn is_on_open_ground(&self, feet: IVec3) -> bool {
        self.ground(feet.x, feet.z) == Some(feet.y)
            && self.top(feet.x, feet.z) == Some(feet.y - 1)
            && self.world.get(feet - IVec3::Y) == Some(Block::Solid)
    }

    /// The liquid whose surface is the top block of column `(x, z)`, as seen from above: its
    /// block ([`Block::Water`] or [`Block::Lava`]) and the y of its lowest and highest cell.
    /// `None` when the top block is not a liquid (a tree may overhang a lake) or the column
    /// is outside the world.
    #[must_use]
    pub fn column_liquid(&self, x: i32, z: i32) -> Option<(Block, i32, i32)> {
        let high = self.top(x, z)?;
        let block = self.world.get(IVec3::new(x, high, z))?;
        if !matches!(block, Block::Water | Block::Lava) {
            return None;
        }
        let mut low = high;
        while low > 0 && self.world.get(IVec3::new(x, low - 1, z)) == Some(block) {
            low -= 1;
        }
        Some((block, low, high))
    }
}

/// Every question goes to [`Terrain::world`]: the terrain adds nothing to the blocks.
impl VoxelWorld for Terrain {
    fn watch(&self) -> Option<crate::world::WorldWatch> {
        self.world.watch()
    }

    fn is_unloaded(&self, p: IVec3) -> bool {
        self.world.is_unloaded(p)
    }

    fn block(&self, p: IVec3) -> Option<Block> {
        self.world.block(p)
    }

    #[inline]
    fn is_passable(&self, p: IVec3) -> bool {
        self.world.is_passable(p)
    }

    #[inline]
    fn is_standable(&self, p: IVec3) -> bool {
        self.world.is_standable(p)
    }

    #[inline]
    fn extra_cost(&self, feet: IVec3) -> u32 {
        self.world.extra_cost(feet)
    }

    #[inline]
    fn terrain(&self, feet: IVec3) -> TerrainFlags {
        self.world.terrain(feet)
    }

    #[inline]
    fn bounds(&self) -> Option<Bounds> {
        self.world.bounds()
    }

    #[inline]
    fn column(&self, x: i32, z: i32, y0: i32, count: u32) -> ColumnBits {
        self.world.column(x, z, y0, count)
    }

    #[inline]
    fn columns_around(&self, x: i32, z: i32, y0: i32, count: u32) -> [ColumnBits; 9] {
        self.world.columns_around(x, z, y0, count)
    }

    #[inline]
    fn passable_block(&self, x: i32, z: i32, y0: i32, count: u32) -> u64 {
        self.world.passable_block(x, z, y0, count)
    }

    #[inline]
    fn columns_square(
        &self,
        x: i32,
        z: i32,
        y0: i32,
        count: u32,
        side: u32,
        out: &mut [ColumnBits],
    ) {
        self.world.columns_square(x, z, y0, count, side, out);
    }

    #[inline]
    fn is_plain_region(&self, min: IVec3, max: IVec3) -> bool {
        self.world.is_plain_region(min, max)
    }
}

/// Generates the world described by `config`: a bounded [`ChunkedWorld`] from `(0, 0, 0)`
/// to `(size_x, size_y, size_z)`, lakes and lava pools included as [`Block::Water`] and
/// [`Block::Lava`] (when [`TerrainConfig::hazards`] is on).
///
/// # Errors
/// [`Error::InvalidSetting`] when the config is invalid (see [`TerrainConfig::validate`]).
pub fn generate_terrain(config: &TerrainConfig) -> Result<ChunkedWorld> {
    generate_terrain_with_heights(config).map(Terrain::into_world)
}

/// Generates the world described by `config`, with the generator's height map (see
/// [`Terrain`]). The blocks are those of [`generate_terrain`].
///
/// The layers, in order: a height map (rolling hills from fractal noise, 1-block terraces
/// from rounding small bumps, plateaus whose edges are vertical cliffs in some places and
/// walkable ramps in others); lakes filling the valleys below the water level and small lava
/// pools; caves and overhangs carved by 3D noise from a few blocks under the surface down;
/// trees and stone pillars on dry ground. Cells at `y = 0` stay solid (bedrock).
///
/// # Errors
/// [`Error::InvalidSetting`] when the config is invalid (see [`TerrainConfig::validate`]).
pub fn generate_terrain_with_heights(config: &TerrainConfig) -> Result<Terrain> {
    config.validate()?;
    let mut generator = Generator::new(config)?;
    generator.height_map();
    if config.hazards {
        generator.plan_liquids();
    }
    generator.ground();
    if config.obstacle_density > 0.0 {
        generator.obstacles();
    }
    // Liquids last: once a chunk holds a kind other than air and solid, the world writes
    // cell by cell, and the solid ground is written fastest column by column.
    generator.pour_liquids();
    Ok(generator.finish())
}
