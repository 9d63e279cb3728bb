//! Small worlds and an exhaustive Dijkstra for the batch, reach and goal tests.

#![allow(dead_code, reason = "each test file uses a different part")]

use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap};

use voxnav::{Agent, Block, ChunkedWorld, IVec3, MoveCosts, VoxelWorld, is_valid_feet, neighbours};

/// A tiny deterministic generator (xorshift64*), so tests need no dependency.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Self {
        Self(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }

    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    pub fn below(&mut self, n: u32) -> i32 {
        (self.next() % u64::from(n)) as i32
    }
}

/// A bounded `sx x 9 x sz` world: a random height map (floor tops between y = 0 and y = 4,
/// so some steps are climbable and some cliffs are not), a few floating slabs (one-way drops
/// and roofs), and a few single air holes.
pub fn random_world(seed: u64, sx: i32, sz: i32) -> ChunkedWorld {
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
        let p = IVec3::new(rng.below(sx as u32), 5 + rng.below(3), rng.below(sz as u32));
        world.set(p, Block::Solid).expect("inside");
    }
    world
}

/// Every valid feet position of a bounded world.
pub fn all_feet<W: VoxelWorld>(world: &W, agent: &Agent) -> Vec<IVec3> {
    let bounds = world.bounds().expect("bounded");
    let mut feet = Vec::new();
    for x in bounds.min.x..bounds.max.x {
        for y in bounds.min.y..bounds.max.y {
            for z in bounds.min.z..bounds.max.z {
                let p = IVec3::new(x, y, z);
                if is_valid_feet(world, p, agent.height) {
                    feet.push(p);
                }
            }
        }
    }
    feet
}

/// The cost of the cheapest route from `start` to every position it reaches.
pub fn dijkstra<W: VoxelWorld>(
    world: &W,
    agent: &Agent,
    costs: &MoveCosts,
    start: IVec3,
) -> HashMap<IVec3, u64> {
    let mut best: HashMap<IVec3, u64> = HashMap::new();
    let mut open = BinaryHeap::new();
    let mut moves = Vec::new();
    best.insert(start, 0);
    open.push(Reverse((0u64, start.to_array())));
    while let Some(Reverse((g, feet))) = open.pop() {
        let feet = IVec3::from_array(feet);
        if best.get(&feet).is_some_and(|&known| known < g) {
            continue;
        }
        neighbours(world, agent, costs, feet, &mut moves);
        for step in &moves {
            let next = g + u64::from(step.cost);
            if best.get(&step.feet).is_none_or(|&known| next < known) {
                best.insert(step.feet, next);
                open.push(Reverse((next, step.feet.to_array())));
            }
        }
    }
    best
}

/// The undirected connected component of every position (moves taken both ways), as a map
/// from position to the smallest position (by array order) of its component.
pub fn undirected_components<W: VoxelWorld>(
    world: &W,
    agent: &Agent,
    feet: &[IVec3],
) -> HashMap<IVec3, [i32; 3]> {
    let mut adjacency: HashMap<IVec3, Vec<IVec3>> = HashMap::new();
    let mut moves = Vec::new();
    for &p in feet {
        neighbours(world, agent, &MoveCosts::default(), p, &mut moves);
        for step in &moves {
            adjacency.entry(p).or_default().push(step.feet);
            adjacency.entry(step.feet).or_default().push(p);
        }
    }
    let mut component: HashMap<IVec3, [i32; 3]> = HashMap::new();
    for &p in feet {
        if component.contains_key(&p) {
            continue;
        }
        let mut members = vec![p];
        let mut stack = vec![p];
        let mut seen = std::collections::HashSet::from([p]);
        while let Some(q) = stack.pop() {
            for &r in adjacency.get(&q).map_or(&[][..], Vec::as_slice) {
                if seen.insert(r) {
                    members.push(r);
                    stack.push(r);
                }
            }
        }
        let smallest = members
            .iter()
            .map(IVec3::to_array)
            .min()
            .expect("non-empty");
        for m in members {
            component.insert(m, smallest);
        }
    }
    component
}

/// [`random_world`] with the other block kinds sprinkled in: ladder columns (climbable
/// straight up and down), water, lava and slow floors.
pub fn random_world_with_kinds(seed: u64, sx: i32, sz: i32) -> ChunkedWorld {
    let mut world = random_world(seed, sx, sz);
    let mut rng = Rng::new(seed ^ 0xb10c);
    for _ in 0..(sx * sz / 10) {
        let x = rng.below(sx as u32);
        let z = rng.below(sz as u32);
        let kind = rng.below(4);
        let block = match kind {
            0 => Block::Water,
            1 => Block::Lava,
            2 => Block::SlowFloor,
            _ => Block::Ladder,
        };
        if block == Block::Ladder {
            let bottom = 1 + rng.below(3);
            world
                .fill(
                    IVec3::new(x, bottom, z),
                    IVec3::new(x, bottom + 3, z),
                    block,
                )
                .expect("inside");
        } else {
            world
                .set(IVec3::new(x, 1 + rng.below(4), z), block)
                .expect("inside");
        }
    }
    world
}
