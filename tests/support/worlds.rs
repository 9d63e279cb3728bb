//! The tests' world builders: ASCII layers, and random worlds drawn from a [`Rng`].

use std::cell::Cell;

use voxnav::flat::IVec2;
use voxnav::world::Bounds;
use voxnav::world::{Grid2d, TerrainFlags, parse_text_world};
use voxnav::{Agent, Block, ChunkedWorld, IVec3, VoxelWorld};

use super::rng::Rng;

/// Builds a world from layers given bottom-up, each a list of rows (z) of characters (x), in
/// the characters of the crate's text world format (`voxnav::world::parse_text_world`).
pub fn world_from_layers(layers: &[&[&str]]) -> ChunkedWorld {
    let sy = layers.len();
    let sz = layers[0].len();
    let sx = layers[0][0].len();
    let mut text = format!("voxnav-world 1\nsize {sx} {sy} {sz}\n");
    for (y, layer) in layers.iter().enumerate() {
        text.push_str("layer ");
        text.push_str(&y.to_string());
        text.push('\n');
        for row in *layer {
            text.push_str(row);
            text.push('\n');
        }
    }
    parse_text_world(&text).expect("test world parses")
}

/// A world of `size` whose cells are solid at random: each cell of the bottom layer with
/// probability `floor_percent` / 100, every cell above with `solid_percent` / 100.
pub fn random_solids(
    rng: &mut Rng,
    size: IVec3,
    floor_percent: u64,
    solid_percent: u64,
) -> ChunkedWorld {
    let mut world = ChunkedWorld::with_size(size).expect("a small world");
    for x in 0..size.x {
        for z in 0..size.z {
            for y in 0..size.y {
                let percent = if y == 0 { floor_percent } else { solid_percent };
                if rng.chance(percent) {
                    world
                        .set(IVec3::new(x, y, z), Block::Solid)
                        .expect("inside");
                }
            }
        }
    }
    world
}

/// A bounded `sx x 9 x sz` world: a random height map (floor tops between y = 0 and y = 4,
/// so some steps are climbable and some cliffs are not), a few floating slabs (one-way drops
/// and roofs), and a few single air holes.
pub fn hills(seed: u64, sx: i32, sz: i32) -> ChunkedWorld {
    let mut rng = Rng::new(seed);
    let mut world = ChunkedWorld::with_size(IVec3::new(sx, 9, sz)).expect("valid size");
    for x in 0..sx {
        for z in 0..sz {
            let top = match rng.below(10) {
                0..=4 => 0,
                5..=6 => 1,
                7 => 2,
                8 => 3,
                _ => 4,
            };
            world
                .fill(IVec3::new(x, 0, z), IVec3::new(x, top, z), Block::Solid)
                .expect("inside");
        }
    }
    for _ in 0..(sx * sz / 12) {
        let p = IVec3::new(rng.coord(sx), 5 + rng.coord(3), rng.coord(sz));
        world.set(p, Block::Solid).expect("inside");
    }
    world
}

/// [`hills`] with the other block kinds sprinkled in: ladder columns (climbable straight up
/// and down), water, lava and slow floors.
pub fn hills_with_kinds(seed: u64, sx: i32, sz: i32) -> ChunkedWorld {
    let mut world = hills(seed, sx, sz);
    let mut rng = Rng::new(seed ^ 0xb10c);
    for _ in 0..(sx * sz / 10) {
        let x = rng.coord(sx);
        let z = rng.coord(sz);
        match rng.below(4) {
            0 => set_one(&mut world, &mut rng, x, z, Block::Water),
            1 => set_one(&mut world, &mut rng, x, z, Block::Lava),
            2 => set_one(&mut world, &mut rng, x, z, Block::SlowFloor),
            _ => {
                let bottom = 1 + rng.coord(3);
                world
                    .fill(
                        IVec3::new(x, bottom, z),
                        IVec3::new(x, bottom + 3, z),
                        Block::Ladder,
                    )
                    .expect("inside");
            }
        }
    }
    world
}

/// [`hills`] with the blocks of real Minecraft worlds sprinkled in: partial floors (slabs and
/// snow, any top from 1 to 15 sixteenths, often on top of a hill), fences, two-high doors,
/// barriers, hazards, cobwebs, water one or two deep, and ladder columns.
pub fn hills_with_real_blocks(seed: u64, sx: i32, sz: i32) -> ChunkedWorld {
    let mut world = hills(seed, sx, sz);
    let mut rng = Rng::new(seed ^ 0x5ab5);
    for _ in 0..(sx * sz / 4) {
        let (x, z) = (rng.coord(sx), rng.coord(sz));
        // The first air cell above the ground of this column: where real blocks sit.
        let ground = (1..9)
            .find(|&y| world.get(IVec3::new(x, y, z)) == Some(Block::Air))
            .unwrap_or(8);
        let y = if rng.chance(70) {
            ground
        } else {
            1 + rng.coord(5)
        };
        let p = IVec3::new(x, y, z);
        match rng.below(10) {
            0..=3 => {
                let top = 1 + rng.below(15) as u8;
                world.set(p, Block::Floor(top)).expect("inside");
            }
            4 => set_here(&mut world, p, Block::Fence),
            5 => {
                set_here(&mut world, p, Block::Door);
                set_here(&mut world, p + IVec3::Y, Block::Door);
            }
            6 => set_here(
                &mut world,
                p,
                rng.pick(&[Block::Barrier, Block::Hazard, Block::Cobweb]),
            ),
            7 => {
                set_here(&mut world, p, Block::Water);
                if rng.chance(50) {
                    set_here(&mut world, p + IVec3::Y, Block::Water);
                }
            }
            8 => set_here(&mut world, p + IVec3::Y, Block::Cobweb),
            _ => {
                for dy in 0..3 {
                    set_here(&mut world, p + IVec3::Y * dy, Block::Ladder);
                }
            }
        }
    }
    world
}

/// Sets `p` to `block` when `p` lies inside the world.
fn set_here(world: &mut ChunkedWorld, p: IVec3, block: Block) {
    if world.get(p).is_some() {
        world.set(p, block).expect("inside");
    }
}

fn set_one(world: &mut ChunkedWorld, rng: &mut Rng, x: i32, z: i32, block: Block) {
    world
        .set(IVec3::new(x, 1 + rng.coord(4), z), block)
        .expect("inside");
}

/// A random block: air and solid most often, then water, lava, slow floor and ladder.
pub fn random_block(rng: &mut Rng) -> Block {
    match rng.below(16) {
        0..=5 => Block::Air,
        6..=10 => Block::Solid,
        11 => Block::Water,
        12 => Block::Lava,
        13 => Block::SlowFloor,
        _ => Block::Ladder,
    }
}

/// A random cell of a world of `size` whose minimum corner is the origin.
pub fn random_cell(rng: &mut Rng, size: IVec3) -> IVec3 {
    IVec3::new(rng.coord(size.x), rng.coord(size.y), rng.coord(size.z))
}

/// A world of `size`: a solid floor at y = 0, random hills one to three blocks high, and
/// `blocks` cells set to a [`random_block`] each.
pub fn floor_hills_and_blocks(rng: &mut Rng, size: IVec3, blocks: usize) -> ChunkedWorld {
    let mut world = ChunkedWorld::with_size(size).expect("a small world");
    world
        .fill(
            IVec3::ZERO,
            IVec3::new(size.x - 1, 0, size.z - 1),
            Block::Solid,
        )
        .expect("inside");
    for x in 0..size.x {
        for z in 0..size.z {
            let height = rng.pick(&[0, 0, 0, 1, 1, 2, 3]);
            for y in 1..=height {
                world
                    .set(IVec3::new(x, y, z), Block::Solid)
                    .expect("inside");
            }
        }
    }
    for _ in 0..blocks {
        let p = random_cell(rng, size);
        let block = random_block(rng);
        world.set(p, block).expect("inside");
    }
    world
}

/// A grid from 1 x 1 to 14 x 14 with a random share (below one half) of blocked cells.
pub fn random_grid(rng: &mut Rng) -> Grid2d {
    let width = 1 + rng.below(14) as u32;
    let height = 1 + rng.below(14) as u32;
    let density = rng.below(50);
    let blocked = (0..width * height).map(|_| rng.chance(density)).collect();
    Grid2d::from_blocked(width, height, blocked).expect("valid size")
}

/// A random free cell of `grid`, or `None` when every cell is blocked.
pub fn random_free_cell(rng: &mut Rng, grid: &Grid2d) -> Option<IVec2> {
    let free: Vec<IVec2> = (0..grid.height() as i32)
        .flat_map(|y| (0..grid.width() as i32).map(move |x| IVec2::new(x, y)))
        .filter(|&c| grid.is_free(c))
        .collect();
    (!free.is_empty()).then(|| rng.pick(&free))
}

/// A random size of the small worlds the exhaustive comparisons use: 4 to 8 cells along x
/// and z, 4 to 7 up.
pub fn small_world_size(rng: &mut Rng) -> IVec3 {
    IVec3::new(
        4 + rng.below(5) as i32,
        4 + rng.below(4) as i32,
        4 + rng.below(5) as i32,
    )
}

/// A random agent for the exhaustive comparisons: 1 to 3 cells tall, steps up 1 or 2, drops
/// 1 to 3, diagonals three times in four.
pub fn random_agent(rng: &mut Rng) -> Agent {
    Agent::default()
        .with_height(1 + rng.below(3) as u32)
        .with_max_step_up(1 + rng.below(2) as u32)
        .with_max_drop(1 + rng.below(3) as u32)
        .with_diagonals(rng.below(4) != 0)
}

/// A [`ChunkedWorld`] whose feet positions cost `extra(world, feet)` to enter, counting in
/// `asked` how often a search asked for that cost (once per move it relaxes). Everything else
/// is the inner world's.
pub struct Priced<F> {
    pub world: ChunkedWorld,
    pub extra: F,
    pub asked: Cell<u64>,
}

impl<F: Fn(&ChunkedWorld, IVec3) -> u32> Priced<F> {
    pub fn new(world: ChunkedWorld, extra: F) -> Self {
        Self {
            world,
            extra,
            asked: Cell::new(0),
        }
    }
}

impl<F: Fn(&ChunkedWorld, IVec3) -> u32> VoxelWorld for Priced<F> {
    fn is_passable(&self, p: IVec3) -> bool {
        self.world.is_passable(p)
    }
    fn is_standable(&self, p: IVec3) -> bool {
        self.world.is_standable(p)
    }
    fn terrain(&self, feet: IVec3) -> TerrainFlags {
        self.world.terrain(feet)
    }
    fn floor_top(&self, p: IVec3) -> u8 {
        self.world.floor_top(p)
    }
    fn bounds(&self) -> Option<Bounds> {
        self.world.bounds()
    }
    fn extra_cost(&self, feet: IVec3) -> u32 {
        self.asked.set(self.asked.get() + 1);
        (self.extra)(&self.world, feet)
    }
}
