//! What the sets carve into the terrain: sealed pits, moated islands and the cave maze, and
//! the maze's queries.

use voxnav::terrain::{SplitMix64, surface_feet};
use voxnav::world::is_valid_feet;
use voxnav::{Agent, Block, ChunkedWorld, IVec3};

use super::{MAZE_CELLS, MAZE_ORIGIN, MAZE_SIZE, Query};

/// Half the side of a pit's floor, at most.
const PIT_HALF: i32 = 10;

/// Carves a sealed room 12 blocks under the surface at `centre`: a floor at most 21 x 21 with
/// some bumps and pillars, three blocks of air, solid walls and roof all round. Returns a
/// feet position inside, or `None` where the terrain is too low for it.
pub(super) fn carve_pit(
    world: &mut ChunkedWorld,
    agent: &Agent,
    centre: IVec3,
    rng: &mut SplitMix64,
) -> voxnav::Result<Option<IVec3>> {
    let Some(surface) = surface_feet(world, agent, centre.x, centre.z) else {
        return Ok(None);
    };
    let floor_y = surface.y - 12;
    if floor_y < 2 {
        return Ok(None);
    }
    let half = 5 + rng.below((PIT_HALF - 4) as u64) as i32;
    let low = IVec3::new(centre.x - half, floor_y, centre.z - half);
    let high = IVec3::new(centre.x + half, floor_y + 2, centre.z + half);
    world.fill(low - IVec3::ONE, high + IVec3::ONE, Block::Solid)?;
    world.fill(low, high, Block::Air)?;
    for x in low.x..=high.x {
        for z in low.z..=high.z {
            match rng.below(20) {
                0 => world.fill(
                    IVec3::new(x, floor_y, z),
                    IVec3::new(x, floor_y + 2, z),
                    Block::Solid,
                )?,
                1 | 2 => {
                    world.set(IVec3::new(x, floor_y, z), Block::Solid)?;
                }
                _ => {}
            }
        }
    }
    let start = IVec3::new(centre.x, floor_y, centre.z);
    world.set(start, Block::Air)?;
    world.set(start + IVec3::Y, Block::Air)?;
    Ok(is_valid_feet(world, start, agent.height).then_some(start))
}

/// Half the side of an island's top.
pub(super) const ISLAND_HALF: i32 = 6;
/// The width of the moat round an island.
pub(super) const MOAT: i32 = 3;

/// Raises a solid island at `centre` above the surrounding surface and digs a moat round it
/// down to the bedrock, far deeper than any safe drop, so no walker gets on. Returns the feet
/// position in the middle of the island's top.
pub(super) fn carve_island(world: &mut ChunkedWorld, centre: IVec3) -> voxnav::Result<IVec3> {
    let size = world.world_bounds().map_or(128, |b| b.max.y);
    let agent = Agent::default();
    let reach = ISLAND_HALF + MOAT;
    let mut top = 0;
    for x in centre.x - reach..=centre.x + reach {
        for z in centre.z - reach..=centre.z + reach {
            if let Some(feet) = surface_feet(world, &agent, x, z) {
                top = top.max(feet.y);
            }
        }
    }
    let top = (top + 2).min(size - 3);
    let corner = |half: i32, y: i32| IVec3::new(centre.x - half, y, centre.z - half);
    let far = |half: i32, y: i32| IVec3::new(centre.x + half, y, centre.z + half);
    world.fill(corner(reach, 0), far(reach, 0), Block::Solid)?;
    world.fill(corner(reach, 1), far(reach, size - 1), Block::Air)?;
    world.fill(
        corner(ISLAND_HALF, 0),
        far(ISLAND_HALF, top - 1),
        Block::Solid,
    )?;
    Ok(IVec3::new(centre.x, top, centre.z))
}

/// Carves a 64 x 64 room maze (a random spanning tree with a few extra openings for loops)
/// into a solid slab at the bottom of the world: 2-wide corridors, 3 blocks of air, random
/// one-block bumps to step over. Sealed from the caves above by a solid roof.
pub(super) fn carve_maze(world: &mut ChunkedWorld, rng: &mut SplitMix64) -> voxnav::Result<()> {
    let base = IVec3::new(MAZE_ORIGIN, 0, MAZE_ORIGIN);
    world.fill(
        base,
        base + IVec3::new(MAZE_SIZE - 1, 6, MAZE_SIZE - 1),
        Block::Solid,
    )?;
    let n = MAZE_CELLS;
    let mut visited = vec![false; (n * n) as usize];
    let mut stack = vec![(0, 0)];
    visited[0] = true;
    let open_between = |world: &mut ChunkedWorld, a: (i32, i32), b: (i32, i32)| {
        // The two rooms' squares and the wall cells between them, as one box.
        let low = IVec3::new(a.0.min(b.0) * 3 + 1, 1, a.1.min(b.1) * 3 + 1);
        let high = IVec3::new(a.0.max(b.0) * 3 + 2, 3, a.1.max(b.1) * 3 + 2);
        world.fill(base + low, base + high, Block::Air)
    };
    while let Some(&(x, z)) = stack.last() {
        let unvisited: Vec<(i32, i32)> = [(1, 0), (-1, 0), (0, 1), (0, -1)]
            .iter()
            .map(|&(dx, dz)| (x + dx, z + dz))
            .filter(|&(nx, nz)| {
                (0..n).contains(&nx) && (0..n).contains(&nz) && !visited[(nz * n + nx) as usize]
            })
            .collect();
        if unvisited.is_empty() {
            stack.pop();
            continue;
        }
        let next = unvisited[rng.below(unvisited.len() as u64) as usize];
        visited[(next.1 * n + next.0) as usize] = true;
        open_between(world, (x, z), next)?;
        stack.push(next);
    }
    for x in 0..n {
        for z in 0..n {
            for next in [(x + 1, z), (x, z + 1)] {
                if next.0 < n && next.1 < n && rng.below(16) == 0 {
                    open_between(world, (x, z), next)?;
                }
            }
        }
    }
    for x in 1..MAZE_SIZE - 1 {
        for z in 1..MAZE_SIZE - 1 {
            let floor = base + IVec3::new(x, 1, z);
            if world.get(floor) == Some(Block::Air) && rng.below(8) == 0 {
                world.set(floor, Block::Solid)?;
            }
        }
    }
    Ok(())
}

/// `count` pairs of maze rooms at least 100 blocks apart.
pub(super) fn maze_queries(
    world: &ChunkedWorld,
    agent: &Agent,
    count: usize,
    rng: &mut SplitMix64,
) -> Vec<Query> {
    let room_feet = |rng: &mut SplitMix64| {
        let x = MAZE_ORIGIN + rng.below(MAZE_CELLS as u64) as i32 * 3 + 1;
        let z = MAZE_ORIGIN + rng.below(MAZE_CELLS as u64) as i32 * 3 + 1;
        (1..=2)
            .map(|y| IVec3::new(x, y, z))
            .find(|&feet| is_valid_feet(world, feet, agent.height))
    };
    let mut queries = Vec::with_capacity(count);
    for _ in 0..count * 50 {
        if queries.len() == count {
            break;
        }
        let (Some(start), Some(goal)) = (room_feet(rng), room_feet(rng)) else {
            continue;
        };
        if (start - goal).as_vec3().length() >= 100.0 {
            queries.push(Query {
                start,
                goal,
                reference: None,
            });
        }
    }
    queries
}
