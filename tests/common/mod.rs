//! Helpers shared by the integration tests: ASCII worlds, an independent statement of the
//! walking rules, an exhaustive Dijkstra, and a small deterministic random generator.

#![allow(dead_code)]

use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap};

use voxnav::{Agent, Block, ChunkedWorld, IVec3, MoveCosts, VoxelWorld, parse_text_world};

/// Builds a world from layers given bottom-up, each a list of rows (z) of characters (x).
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

/// `SplitMix64`: tiny, deterministic, good enough for test data.
pub struct Rng(pub u64);

impl Rng {
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    pub fn below(&mut self, n: u64) -> u64 {
        self.next_u64() % n
    }
    pub fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }
}

fn fits<W: VoxelWorld + ?Sized>(world: &W, feet: IVec3, height: u32) -> bool {
    (0..height as i32).all(|i| world.is_passable(feet + IVec3::Y * i))
}

fn valid<W: VoxelWorld + ?Sized>(world: &W, feet: IVec3, height: u32) -> bool {
    world.is_standable(feet - IVec3::Y) && fits(world, feet, height)
}

/// The walking rules of DESIGN section 2, written out again independently of `voxnav::moves`:
/// the cost of the move from `from` to `to`, or `None` when the rules give no such move.
pub fn legal_step<W: VoxelWorld + ?Sized>(
    world: &W,
    agent: &Agent,
    costs: &MoveCosts,
    from: IVec3,
    to: IVec3,
) -> Option<u32> {
    let h = agent.height;
    let (dx, dz) = (to.x - from.x, to.z - from.z);
    if dx.abs() > 1 || dz.abs() > 1 || (dx == 0 && dz == 0) {
        return None;
    }
    let diagonal = dx != 0 && dz != 0;
    if diagonal && !agent.diagonals {
        return None;
    }
    if !valid(world, from, h) || !valid(world, to, h) {
        return None;
    }
    let column = IVec3::new(to.x, from.y, to.z);
    // Which single target height do the rules pick for this direction?
    let picked_y = if fits(world, column, h) {
        let mut y = from.y;
        // fall while there is no floor, up to max_drop
        let mut fallen = 0;
        loop {
            if world.is_standable(IVec3::new(to.x, y - 1, to.z)) {
                break Some(y);
            }
            if fallen == agent.max_drop {
                break None;
            }
            y -= 1;
            fallen += 1;
            if !world.is_passable(IVec3::new(to.x, y, to.z)) {
                break None;
            }
        }
    } else {
        (1..=agent.max_step_up as i32)
            .take_while(|k| world.is_passable(from + IVec3::Y * (h as i32 + k - 1)))
            .map(|k| from.y + k)
            .find(|&y| valid(world, IVec3::new(to.x, y, to.z), h))
    }?;
    if picked_y != to.y {
        return None;
    }
    if diagonal {
        let top = from.y.max(to.y) + h as i32 - 1;
        for y in from.y..=top {
            if !world.is_passable(IVec3::new(to.x, y, from.z))
                || !world.is_passable(IVec3::new(from.x, y, to.z))
            {
                return None;
            }
        }
    }
    let dy = to.y - from.y;
    let horizontal = if diagonal {
        costs.diagonal
    } else {
        costs.straight
    };
    let vertical = if dy > 0 {
        dy as u32 * costs.ascend
    } else {
        (-dy) as u32 * costs.descend
    };
    Some(horizontal + vertical + world.extra_cost(to))
}

/// Every position the rules allow moving to from `from`, found by trying every candidate cell
/// with [`legal_step`] (not through `voxnav::neighbours`).
pub fn legal_successors<W: VoxelWorld + ?Sized>(
    world: &W,
    agent: &Agent,
    costs: &MoveCosts,
    from: IVec3,
) -> Vec<(IVec3, u32)> {
    let mut out = Vec::new();
    for dx in -1..=1 {
        for dz in -1..=1 {
            for dy in -(agent.max_drop as i32)..=agent.max_step_up as i32 {
                let to = from + IVec3::new(dx, dy, dz);
                if let Some(cost) = legal_step(world, agent, costs, from, to) {
                    out.push((to, cost));
                }
            }
        }
    }
    out
}

/// Exhaustive Dijkstra over [`legal_successors`]: the cost of the cheapest route, or `None`.
pub fn dijkstra<W: VoxelWorld + ?Sized>(
    world: &W,
    agent: &Agent,
    costs: &MoveCosts,
    start: IVec3,
    goal: IVec3,
) -> Option<u64> {
    let mut dist: HashMap<IVec3, u64> = HashMap::new();
    let mut heap = BinaryHeap::new();
    dist.insert(start, 0);
    heap.push(Reverse((0u64, start.to_array())));
    while let Some(Reverse((d, p))) = heap.pop() {
        let p = IVec3::from_array(p);
        if p == goal {
            return Some(d);
        }
        if dist.get(&p).is_some_and(|&best| d > best) {
            continue;
        }
        for (q, cost) in legal_successors(world, agent, costs, p) {
            let nd = d + u64::from(cost);
            if dist.get(&q).is_none_or(|&best| nd < best) {
                dist.insert(q, nd);
                heap.push(Reverse((nd, q.to_array())));
            }
        }
    }
    None
}

/// Checks a route step by step with [`legal_step`] and returns its cost.
pub fn route_cost<W: VoxelWorld + ?Sized>(
    world: &W,
    agent: &Agent,
    costs: &MoveCosts,
    path: &[IVec3],
) -> u64 {
    path.windows(2)
        .map(|step| {
            u64::from(
                legal_step(world, agent, costs, step[0], step[1]).unwrap_or_else(|| {
                    panic!("illegal step {} -> {} in {path:?}", step[0], step[1])
                }),
            )
        })
        .sum()
}

/// A random small world: a mostly solid ground layer, random blocks above it.
pub fn random_world(rng: &mut Rng, size: IVec3, density: u64) -> ChunkedWorld {
    let mut world = ChunkedWorld::with_size(size).unwrap();
    for x in 0..size.x {
        for z in 0..size.z {
            if rng.chance(90) {
                world.set(IVec3::new(x, 0, z), Block::Solid).unwrap();
            }
            for y in 1..size.y {
                if rng.chance(density) {
                    world.set(IVec3::new(x, y, z), Block::Solid).unwrap();
                }
            }
        }
    }
    world
}

/// All valid feet positions of a bounded world.
pub fn valid_positions(world: &ChunkedWorld, agent: &Agent) -> Vec<IVec3> {
    let size = world.world_bounds().unwrap().size();
    let mut out = Vec::new();
    for y in 0..size.y {
        for z in 0..size.z {
            for x in 0..size.x {
                let p = IVec3::new(x, y, z);
                if valid(world, p, agent.height) {
                    out.push(p);
                }
            }
        }
    }
    out
}
