//! THE oracle: the walking rules written out again, independently of `voxnav::moves`, and
//! exhaustive Dijkstra over them.
//!
//! Agents wider than one block (`Agent::width`) are restated too ([`Footprints`]): their feet
//! cell is the min-x, min-z corner of a `width x width` box, and every rule applies to the box
//! layer by layer: a layer is clear when all its cells are (and no fence under it pokes in),
//! holds the agent up when any cell under it does (the highest floor counts), is in water
//! when all its cells are, has the other terrain flags when any cell has, and never a ladder.
//!
//! The rules are the ones the docs of `voxnav::moves` state (rules 1 to 7: level walk, drop,
//! step up, no corner cutting, ladder climbs, terrain terms, floor heights, deep water). The
//! code here asks the world only the questions of the `VoxelWorld` contract (`is_passable`,
//! `is_standable`, `floor_top`, `terrain`, `extra_cost`, `bounds`) and decides every move
//! itself, cell by cell, by trying every candidate target rather than generating moves; so a
//! test that compares the crate with it compares two statements of the rules, not one with
//! itself.

use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap, HashSet};

use voxnav::engine::{Move, neighbours};
use voxnav::world::TerrainFlags;
use voxnav::{Agent, IVec3, MoveCosts, SearchResult, SearchStatus, VoxelWorld};

/// Whether every body cell of an agent `height` tall with its feet at `feet` is passable.
pub fn fits<W: VoxelWorld + ?Sized>(world: &W, feet: IVec3, height: u32) -> bool {
    (0..height as i32).all(|i| world.is_passable(feet + IVec3::Y * i))
}

/// Whether `feet` is a valid feet position: a standable floor below and room for the body.
pub fn valid<W: VoxelWorld + ?Sized>(world: &W, feet: IVec3, height: u32) -> bool {
    world.is_standable(feet - IVec3::Y) && fits(world, feet, height)
}

/// The terrain terms of entering `to`: `water`, `slow_floor`, `danger`, `door` and `cobweb`
/// for each flag the world reports there (rule 5).
fn terrain_terms<W: VoxelWorld + ?Sized>(world: &W, costs: &MoveCosts, to: IVec3) -> u64 {
    let flags = world.terrain(to);
    let mut cost = 0;
    for (flag, term) in [
        (TerrainFlags::IN_WATER, costs.water),
        (TerrainFlags::ON_SLOW_FLOOR, costs.slow_floor),
        (TerrainFlags::NEAR_DANGER, costs.danger),
        (TerrainFlags::IN_DOOR, costs.door),
        (TerrainFlags::IN_COBWEB, costs.cobweb),
    ] {
        if flags.contains(flag) {
            cost += u64::from(term);
        }
    }
    cost
}

/// A move's full cost: its own part plus the target's terrain terms and extra cost, capped
/// at `u32::MAX` as a move cost is a `u32`.
fn priced<W: VoxelWorld + ?Sized>(world: &W, costs: &MoveCosts, to: IVec3, own: u64) -> u32 {
    let total = own + terrain_terms(world, costs, to) + u64::from(world.extra_cost(to));
    u32::try_from(total).unwrap_or(u32::MAX)
}

/// Rule 7: a move may not end with the feet in water whose surface is above the feet cell
/// (the cell above the feet is water too).
fn drowns<W: VoxelWorld + ?Sized>(world: &W, to: IVec3) -> bool {
    let wet = |p: IVec3| world.terrain(p).contains(TerrainFlags::IN_WATER);
    wet(to) && wet(to + IVec3::Y)
}

/// The height of the floor under the feet at `feet`, in sixteenths of a block above y = 0.
fn floor_height<W: VoxelWorld + ?Sized>(world: &W, feet: IVec3) -> i64 {
    16 * i64::from(feet.y - 1) + i64::from(world.floor_top(feet - IVec3::Y))
}

/// Rule 6 for the walk from `from` to `to`: `None` when the floor rises higher than a jump
/// (1.25 blocks above `max_step_up - 1` blocks) or falls deeper than `max_drop` blocks;
/// otherwise whether the move needs a jump (the floor rises more than the step height,
/// 0.6 block, which in sixteenths is 9).
fn needs_jump<W: VoxelWorld + ?Sized>(
    world: &W,
    agent: &Agent,
    from: IVec3,
    to: IVec3,
) -> Option<bool> {
    let (start, end) = (floor_height(world, from), floor_height(world, to));
    let highest_jump = start + (16 * i64::from(agent.max_step_up) + 4).max(9);
    let deepest_fall = start - (16 * i64::from(agent.max_drop)).max(9);
    match end {
        e if e > highest_jump || e < deepest_fall => None,
        e => Some(e - start >= 10),
    }
}

/// Rule 4, ladder climbs: up from a valid `from` whose feet cell is a ladder, down from one
/// whose floor is a ladder, to the valid feet position straight above or below.
fn ladder_step<W: VoxelWorld + ?Sized>(
    world: &W,
    height: u32,
    costs: &MoveCosts,
    from: IVec3,
    to: IVec3,
) -> Option<u32> {
    let here = world.terrain(from);
    let own = if to == from + IVec3::Y && here.contains(TerrainFlags::IN_LADDER) {
        u64::from(costs.ascend) + u64::from(costs.climb)
    } else if to == from - IVec3::Y && here.contains(TerrainFlags::ON_LADDER) {
        u64::from(costs.descend) + u64::from(costs.climb)
    } else {
        return None;
    };
    (valid(world, to, height) && !drowns(world, to)).then(|| priced(world, costs, to, own))
}

/// The cost of the move from `from` to `to`, or `None` when the rules give no such move.
pub fn legal_step<W: VoxelWorld + ?Sized>(
    world: &W,
    agent: &Agent,
    costs: &MoveCosts,
    from: IVec3,
    to: IVec3,
) -> Option<u32> {
    if agent.width > 1 {
        let narrow = Agent { width: 1, ..*agent };
        return legal_step_narrow(
            &Footprints::new(world, agent.width),
            &narrow,
            costs,
            from,
            to,
        );
    }
    legal_step_narrow(world, agent, costs, from, to)
}

/// [`legal_step`] of a one-wide agent.
fn legal_step_narrow<W: VoxelWorld + ?Sized>(
    world: &W,
    agent: &Agent,
    costs: &MoveCosts,
    from: IVec3,
    to: IVec3,
) -> Option<u32> {
    let h = agent.height;
    if !valid(world, from, h) || !valid(world, to, h) {
        return None;
    }
    // Rule 5's refusals: an agent that avoids water ends no move in it, one that does not
    // open doors none in a door.
    let flags = world.terrain(to);
    if (agent.water == voxnav::WaterMode::Avoid && flags.contains(TerrainFlags::IN_WATER))
        || (!agent.opens_doors && flags.contains(TerrainFlags::IN_DOOR))
    {
        return None;
    }
    let (dx, dz) = (to.x - from.x, to.z - from.z);
    if (dx, dz) == (0, 0) {
        return ladder_step(world, agent.height, costs, from, to);
    }
    if dx.abs() > 1 || dz.abs() > 1 {
        return None;
    }
    let diagonal = dx != 0 && dz != 0;
    if diagonal && !agent.diagonals {
        return None;
    }
    let column = IVec3::new(to.x, from.y, to.z);
    // Rules 1 and 2 pick one target height per direction.
    let picked_y = if fits(world, column, h) {
        // Level walk, or a fall down the column of at most max_drop to the first floor.
        let mut y = from.y;
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
        // Step up: the lowest height reachable with head room in the agent's own column.
        (1..=agent.max_step_up as i32)
            .take_while(|k| world.is_passable(from + IVec3::Y * (h as i32 + k - 1)))
            .map(|k| from.y + k)
            .find(|&y| valid(world, IVec3::new(to.x, y, to.z), h))
    }?;
    if picked_y != to.y {
        return None;
    }
    if drowns(world, to) {
        return None;
    }
    let jump = needs_jump(world, agent, from, to)?;
    if diagonal {
        // Rule 3: both side columns clear over the whole swept height, and no fence (whose
        // top is at 24 sixteenths) just below it pokes into the swept cells.
        let top = from.y.max(to.y) + h as i32 - 1;
        if world.floor_top(IVec3::new(to.x, from.y - 1, from.z)) > 16
            || world.floor_top(IVec3::new(from.x, from.y - 1, to.z)) > 16
        {
            return None;
        }
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
        u64::from(dy.unsigned_abs()) * u64::from(costs.ascend)
    } else {
        u64::from(dy.unsigned_abs()) * u64::from(costs.descend)
    };
    let jump = if jump { u64::from(costs.jump) } else { 0 };
    Some(priced(
        world,
        costs,
        to,
        u64::from(horizontal) + vertical + jump,
    ))
}

/// Every position the rules allow moving to from `from`, with its cost, found by trying
/// every candidate cell with [`legal_step`].
pub fn legal_successors<W: VoxelWorld + ?Sized>(
    world: &W,
    agent: &Agent,
    costs: &MoveCosts,
    from: IVec3,
) -> Vec<(IVec3, u32)> {
    let mut out = Vec::new();
    let lowest = -(agent.max_drop.max(1) as i32);
    let highest = agent.max_step_up.max(1) as i32;
    for dx in -1..=1 {
        for dz in -1..=1 {
            for dy in lowest..=highest {
                let to = from + IVec3::new(dx, dy, dz);
                if let Some(cost) = legal_step(world, agent, costs, from, to) {
                    out.push((to, cost));
                }
            }
        }
    }
    out
}

/// Exhaustive Dijkstra over [`legal_successors`]: the cost of the cheapest route from `start`
/// to every position it reaches (`start` itself at 0).
pub fn dijkstra_all<W: VoxelWorld + ?Sized>(
    world: &W,
    agent: &Agent,
    costs: &MoveCosts,
    start: IVec3,
) -> HashMap<IVec3, u64> {
    dijkstra(world, agent, costs, start, None).0
}

/// Exhaustive Dijkstra over [`legal_successors`]: the cost of the cheapest route from `start`
/// to `goal`, or `None` when no route exists.
pub fn dijkstra_cost<W: VoxelWorld + ?Sized>(
    world: &W,
    agent: &Agent,
    costs: &MoveCosts,
    start: IVec3,
    goal: IVec3,
) -> Option<u64> {
    dijkstra(world, agent, costs, start, Some(goal)).1
}

/// Dijkstra from `start`, stopping when `goal` is settled: the settled costs so far and the
/// goal's cost.
fn dijkstra<W: VoxelWorld + ?Sized>(
    world: &W,
    agent: &Agent,
    costs: &MoveCosts,
    start: IVec3,
    goal: Option<IVec3>,
) -> (HashMap<IVec3, u64>, Option<u64>) {
    let mut best: HashMap<IVec3, u64> = HashMap::new();
    let mut heap = BinaryHeap::new();
    best.insert(start, 0);
    heap.push(Reverse((0u64, start.to_array())));
    while let Some(Reverse((d, p))) = heap.pop() {
        let p = IVec3::from_array(p);
        if best.get(&p).is_some_and(|&known| d > known) {
            continue;
        }
        if Some(p) == goal {
            return (best, Some(d));
        }
        for (q, cost) in legal_successors(world, agent, costs, p) {
            let next = d + u64::from(cost);
            if best.get(&q).is_none_or(|&known| next < known) {
                best.insert(q, next);
                heap.push(Reverse((next, q.to_array())));
            }
        }
    }
    (best, None)
}

/// Checks a route step by step with [`legal_step`] and returns its cost; panics naming the
/// first illegal step.
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

/// Checks a search's answer from `start` to `goal` against exhaustive Dijkstra over the rules
/// here: the same cost; when found, a route from `start` to `goal` whose steps are legal and
/// add up to it; otherwise unreachable, with no route. Returns whether a route was found;
/// `context` names the case in a failure.
pub fn assert_matches_dijkstra<W: VoxelWorld + ?Sized>(
    world: &W,
    agent: &Agent,
    costs: &MoveCosts,
    (start, goal): (IVec3, IVec3),
    result: &SearchResult,
    context: &str,
) -> bool {
    let expected = dijkstra_cost(world, agent, costs, start, goal);
    assert_eq!(result.cost, expected, "{context}");
    if expected.is_some() {
        assert_eq!(result.status, SearchStatus::Found, "{context}");
        assert_eq!(result.path.first(), Some(&start), "{context}");
        assert_eq!(result.path.last(), Some(&goal), "{context}");
        assert_eq!(
            Some(route_cost(world, agent, costs, &result.path)),
            expected,
            "{context}"
        );
    } else {
        assert_eq!(result.status, SearchStatus::Unreachable, "{context}");
        assert!(result.path.is_empty(), "{context}");
    }
    expected.is_some()
}

/// Runs the crate's neighbour generator at `feet` into `moves` and checks that it yields
/// exactly the positions and costs of [`legal_successors`]; `context` names the case in a
/// failure.
pub fn assert_generator_matches_rules<W: VoxelWorld + ?Sized>(
    world: &W,
    agent: &Agent,
    costs: &MoveCosts,
    feet: IVec3,
    moves: &mut Vec<Move>,
    context: &str,
) {
    neighbours(world, agent, costs, feet, moves);
    let mut generated: Vec<_> = moves.iter().map(|m| (m.feet.to_array(), m.cost)).collect();
    let mut expected: Vec<_> = legal_successors(world, agent, costs, feet)
        .into_iter()
        .map(|(p, c)| (p.to_array(), c))
        .collect();
    generated.sort_unstable();
    expected.sort_unstable();
    assert_eq!(generated, expected, "{context} at {feet}");
}

/// Every valid feet position of a bounded world, in x, then y, then z order.
pub fn all_feet<W: VoxelWorld + ?Sized>(world: &W, agent: &Agent) -> Vec<IVec3> {
    let bounds = world.bounds().expect("a bounded world");
    let mut feet = Vec::new();
    for x in bounds.min.x..bounds.max.x {
        for y in bounds.min.y..bounds.max.y {
            for z in bounds.min.z..bounds.max.z {
                let p = IVec3::new(x, y, z);
                let fine = if agent.width > 1 {
                    valid(&Footprints::new(world, agent.width), p, agent.height)
                } else {
                    valid(world, p, agent.height)
                };
                if fine {
                    feet.push(p);
                }
            }
        }
    }
    feet
}

/// The undirected connected component of every position in `feet` (moves of
/// [`legal_successors`] taken both ways), as a map from position to the smallest position (by
/// array order) of its component.
pub fn undirected_components<W: VoxelWorld + ?Sized>(
    world: &W,
    agent: &Agent,
    feet: &[IVec3],
) -> HashMap<IVec3, [i32; 3]> {
    let mut adjacency: HashMap<IVec3, Vec<IVec3>> = HashMap::new();
    for &p in feet {
        for (q, _) in legal_successors(world, agent, &MoveCosts::default(), p) {
            adjacency.entry(p).or_default().push(q);
            adjacency.entry(q).or_default().push(p);
        }
    }
    let mut component: HashMap<IVec3, [i32; 3]> = HashMap::new();
    for &p in feet {
        if component.contains_key(&p) {
            continue;
        }
        let mut members = vec![p];
        let mut stack = vec![p];
        let mut seen = HashSet::from([p]);
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

/// A [`ChunkedWorld`](voxnav::ChunkedWorld) read block by block: every answer of the
/// `VoxelWorld` contract restated from [`ChunkedWorld::get`](voxnav::ChunkedWorld::get) and the
/// block table of `voxnav::Block`'s docs, so that the storage's bitsets, per-chunk shortcuts
/// and danger margin are checked rather than trusted. Cells outside a bounded world read as
/// nothing (neither passable nor standable, plain terrain).
pub struct CellWorld<'a>(pub &'a voxnav::ChunkedWorld);

impl CellWorld<'_> {
    fn block(&self, p: IVec3) -> Option<voxnav::Block> {
        self.0.get(p)
    }
}

impl VoxelWorld for CellWorld<'_> {
    fn is_passable(&self, p: IVec3) -> bool {
        use voxnav::Block;
        matches!(
            self.block(p),
            Some(Block::Air | Block::Water | Block::Door | Block::Cobweb | Block::Ladder)
        )
    }

    fn is_standable(&self, p: IVec3) -> bool {
        use voxnav::Block;
        matches!(
            self.block(p),
            Some(Block::Solid | Block::SlowFloor | Block::Floor(_) | Block::Ladder)
        )
    }

    fn terrain(&self, feet: IVec3) -> TerrainFlags {
        terrain_by_cells(self.0, feet)
    }

    fn floor_top(&self, p: IVec3) -> u8 {
        match self.block(p) {
            Some(voxnav::Block::Floor(top)) => top,
            Some(voxnav::Block::Fence) => voxnav::world::FENCE_TOP,
            _ => voxnav::world::FULL_BLOCK,
        }
    }

    fn bounds(&self) -> Option<voxnav::world::Bounds> {
        self.0.bounds()
    }
}

/// [`VoxelWorld::terrain`] of `feet` restated from the blocks around it: the feet cell's kind
/// (water, ladder, door, cobweb), a cobweb at the head (the cell above the feet), the floor's
/// kind (slow floor, ladder) and lava or a hazard anywhere in the 3 x 3 x 3 cube around the
/// feet. Plain outside a bounded world.
pub fn terrain_by_cells(world: &voxnav::ChunkedWorld, feet: IVec3) -> TerrainFlags {
    use voxnav::Block;
    let Some(here) = world.get(feet) else {
        return TerrainFlags::PLAIN;
    };
    let mut flags = TerrainFlags::PLAIN;
    let mut add = |flag| flags = flags | flag;
    match here {
        Block::Water => add(TerrainFlags::IN_WATER),
        Block::Ladder => add(TerrainFlags::IN_LADDER),
        Block::Door => add(TerrainFlags::IN_DOOR),
        Block::Cobweb => add(TerrainFlags::IN_COBWEB),
        _ => {}
    }
    if world.get(feet + IVec3::Y) == Some(Block::Cobweb) {
        add(TerrainFlags::IN_COBWEB);
    }
    match world.get(feet - IVec3::Y) {
        Some(Block::SlowFloor) => add(TerrainFlags::ON_SLOW_FLOOR),
        Some(Block::Ladder) => add(TerrainFlags::ON_LADDER),
        _ => {}
    }
    let near_danger = (-1..=1).any(|dy| {
        (-1..=1).any(|dz| {
            (-1..=1).any(|dx| {
                world
                    .get(feet + IVec3::new(dx, dy, dz))
                    .is_some_and(Block::is_dangerous)
            })
        })
    });
    if near_danger {
        add(TerrainFlags::NEAR_DANGER);
    }
    flags
}

/// The world as layers of a box `width` wide: cell `p` stands for the cells
/// `p + (a, 0, b)`, `a` and `b` below `width` (see the module docs).
pub struct Footprints<'a, W: ?Sized> {
    world: &'a W,
    width: i32,
}

impl<'a, W: VoxelWorld + ?Sized> Footprints<'a, W> {
    pub fn new(world: &'a W, width: u32) -> Self {
        Self {
            world,
            width: width as i32,
        }
    }

    fn cells(&self, p: IVec3) -> Vec<IVec3> {
        let mut out = Vec::new();
        for a in 0..self.width {
            for b in 0..self.width {
                out.push(p + IVec3::new(a, 0, b));
            }
        }
        out
    }
}

impl<W: VoxelWorld + ?Sized> VoxelWorld for Footprints<'_, W> {
    fn is_passable(&self, p: IVec3) -> bool {
        self.cells(p)
            .into_iter()
            .all(|c| self.world.is_passable(c) && self.world.floor_top(c - IVec3::Y) <= 16)
    }

    fn is_standable(&self, p: IVec3) -> bool {
        self.cells(p)
            .into_iter()
            .any(|c| self.world.is_standable(c))
    }

    fn extra_cost(&self, feet: IVec3) -> u32 {
        self.world.extra_cost(feet)
    }

    fn terrain(&self, feet: IVec3) -> TerrainFlags {
        let flags: Vec<TerrainFlags> = self
            .cells(feet)
            .into_iter()
            .map(|c| self.world.terrain(c))
            .collect();
        let mut out = TerrainFlags::PLAIN;
        if flags.iter().all(|f| f.contains(TerrainFlags::IN_WATER)) {
            out = out | TerrainFlags::IN_WATER;
        }
        for flag in [
            TerrainFlags::ON_SLOW_FLOOR,
            TerrainFlags::NEAR_DANGER,
            TerrainFlags::IN_DOOR,
            TerrainFlags::IN_COBWEB,
        ] {
            if flags.iter().any(|f| f.contains(flag)) {
                out = out | flag;
            }
        }
        out
    }

    fn floor_top(&self, p: IVec3) -> u8 {
        self.cells(p)
            .into_iter()
            .filter(|&c| self.world.is_standable(c) || self.world.floor_top(c) > 16)
            .map(|c| self.world.floor_top(c))
            .max()
            .unwrap_or(16)
    }

    fn bounds(&self) -> Option<voxnav::world::Bounds> {
        self.world.bounds().map(|b| {
            let inset = IVec3::new(self.width - 1, 0, self.width - 1);
            voxnav::world::Bounds::new(b.min, (b.max - inset).max(b.min))
        })
    }
}
