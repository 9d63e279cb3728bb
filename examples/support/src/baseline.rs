//! The naive 26-neighbour 3D A*, kept only as a yardstick for benchmarks.
//!
//! Every passable cell is a node and every passable cell among its 26 neighbours is an edge:
//! no floors, no head room, no walking rules, so the "agent" flies. A face step costs
//! [`FACE_COST`], an edge (two-axis) step [`EDGE_COST`] and a corner (three-axis) step
//! [`CORNER_COST`], roughly 10, 10 * sqrt 2 and 10 * sqrt 3. The open set is a
//! [`BinaryHeap`] and the node tables are hash maps keyed by position, filled afresh for each
//! query: the textbook implementation, written plainly but not slowed down on purpose.
//!
//! Its routes are not routes a walking agent can follow (it flies over gaps and up cliffs),
//! so benchmarks compare only its speed and the nodes it expands with voxnav's.
//!
//! [`find_flier_path`] is the same textbook search under a flier's rules (a flier of height
//! 1, [`voxnav::moves::fly`]): a diagonal step only when every cell of the box it spans is
//! passable (checked cell by cell), and the face, edge and corner costs of a [`MoveCosts`].
//! It solves exactly the problem voxnav's flier solves, so the two must agree on every cost.
//!
//! It lives beside the benchmarks, not in the library: no user routes with it.

use std::cmp::Ordering;
use std::collections::BinaryHeap;
use std::time::Instant;

use ahash::{AHashMap, AHashSet};
use glam::IVec3;

use voxnav::engine::SearchStats;
use voxnav::world::InvalidFeet;
use voxnav::{Error, MoveCosts, Result, SearchResult, SearchStatus, VoxelWorld};

/// The cost of a step along one axis.
pub const FACE_COST: u64 = 10;
/// The cost of a step along two axes at once: 10 * sqrt 2, rounded.
pub const EDGE_COST: u64 = 14;
/// The cost of a step along all three axes at once: 10 * sqrt 3, rounded.
pub const CORNER_COST: u64 = 17;

/// The 26 offsets to the cells around a cell, with the cost of stepping to each.
const STEPS: [(IVec3, u64); 26] = steps();

const fn steps() -> [(IVec3, u64); 26] {
    let mut out = [(IVec3::ZERO, 0); 26];
    let mut i = 0;
    let mut n = 0;
    while n < 27 {
        let d = IVec3::new(n % 3 - 1, n / 9 - 1, n / 3 % 3 - 1);
        let axes = (d.x != 0) as u32 + (d.y != 0) as u32 + (d.z != 0) as u32;
        if axes > 0 {
            let cost = match axes {
                1 => FACE_COST,
                2 => EDGE_COST,
                _ => CORNER_COST,
            };
            out[i] = (d, cost);
            i += 1;
        }
        n += 1;
    }
    out
}

/// The cheapest cost from `from` to `to` in an empty world under the 26-neighbour costs.
///
/// With the axis distances sorted as `a <= b <= c`, the cheapest unobstructed route takes `a`
/// corner steps, `b - a` edge steps and `c - b` face steps, because a corner step (17) is
/// cheaper than an edge and a face step (24) and an edge step (14) is cheaper than two face
/// steps (20). Obstacles only make routes longer, so the estimate is admissible, and it is
/// consistent because it is an exact distance of the unobstructed graph.
#[inline]
#[must_use]
pub fn heuristic(from: IVec3, to: IVec3) -> u64 {
    Rules::NAIVE.heuristic(from, to)
}

/// The passable cells among the 26 neighbours of `cell`, with the cost of each step.
pub fn neighbours<W: VoxelWorld + ?Sized>(
    world: &W,
    cell: IVec3,
) -> impl Iterator<Item = (IVec3, u64)> + '_ {
    STEPS
        .iter()
        .map(move |&(d, cost)| (cell + d, cost))
        .filter(|&(next, _)| world.is_passable(next))
}

/// An open-set entry: the lowest `f` first, then the highest `g`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Open {
    f: u64,
    g: u64,
    cell: IVec3,
}

impl Ord for Open {
    fn cmp(&self, other: &Self) -> Ordering {
        other
            .f
            .cmp(&self.f)
            .then(self.g.cmp(&other.g))
            .then_with(|| other.cell.to_array().cmp(&self.cell.to_array()))
    }
}

impl PartialOrd for Open {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

fn check_cell<W: VoxelWorld + ?Sized>(world: &W, cell: IVec3) -> Result<(), InvalidFeet> {
    if world.bounds().is_some_and(|bounds| !bounds.contains(cell)) {
        return Err(InvalidFeet::OutOfWorld);
    }
    if !world.is_passable(cell) {
        return Err(InvalidFeet::NoHeadRoom { blocked: cell });
    }
    Ok(())
}

/// Finds the cheapest 26-neighbour route from the passable cell `start` to the passable cell
/// `goal`, expanding at most `max_nodes` cells.
///
/// The result is [`SearchStatus::Found`] with an optimal route, [`SearchStatus::Partial`]
/// with the route to the reached cell closest to the goal when the budget runs out, or
/// [`SearchStatus::Unreachable`] when every cell reachable from `start` was expanded. A
/// bounded world bounds the search by itself; `max_nodes` of `None` means no node budget.
///
/// # Errors
/// [`Error::InvalidStart`] or [`Error::InvalidGoal`] when either cell is outside the world
/// or not passable, [`Error::ZeroBudget`] for `max_nodes` of `Some(0)`, and
/// [`Error::Unbounded`] for an unbounded world searched without a budget.
pub fn find_path<W: VoxelWorld + ?Sized>(
    world: &W,
    start: IVec3,
    goal: IVec3,
    max_nodes: Option<u64>,
) -> Result<SearchResult> {
    search(world, start, goal, max_nodes, &Rules::NAIVE)
}

/// [`find_path`] under a flier's rules: the 26 neighbours of a flier of height 1, a step
/// legal only when every cell of the box spanned by its two cells is passable, and
/// `costs.straight`, `costs.diagonal` and `costs.corner` per face, edge and corner step. The
/// heuristic is the 3D octile distance at those costs.
///
/// ```
/// use voxnav::IVec3;
/// use voxnav::{Agent, ChunkedWorld, MoveCosts, SearchOptions, baseline};
/// use voxnav::engine::Pathfinder;
///
/// let world = ChunkedWorld::with_size(IVec3::new(4, 4, 4))?;
/// let costs = MoveCosts::octile();
/// let naive = baseline::find_flier_path(&world, IVec3::ZERO, IVec3::new(3, 3, 2), None, &costs)?;
/// let mut flier = Pathfinder::new(Agent::flier(1), costs)?;
/// let fast = flier.find_path(&world, IVec3::ZERO, IVec3::new(3, 3, 2), &SearchOptions::default())?;
/// assert_eq!(naive.cost, fast.cost);
/// assert_eq!(naive.cost, Some(2 * 173_205 + 141_421));
/// # Ok::<(), voxnav::Error>(())
/// ```
///
/// # Errors
/// As [`find_path`]; also [`Error::InvalidSetting`] for invalid costs.
pub fn find_flier_path<W: VoxelWorld + ?Sized>(
    world: &W,
    start: IVec3,
    goal: IVec3,
    max_nodes: Option<u64>,
    costs: &MoveCosts,
) -> Result<SearchResult> {
    costs.validate()?;
    let rules = Rules {
        costs: [
            u64::from(costs.straight),
            u64::from(costs.diagonal),
            u64::from(costs.corner),
        ],
        whole_box: true,
    };
    search(world, start, goal, max_nodes, &rules)
}

/// What a step may do and cost.
struct Rules {
    /// The cost of a face, edge and corner step.
    costs: [u64; 3],
    /// Whether every cell of the box a step spans must be passable (no cut corners).
    whole_box: bool,
}

impl Rules {
    const NAIVE: Rules = Rules {
        costs: [FACE_COST, EDGE_COST, CORNER_COST],
        whole_box: false,
    };

    /// The cheapest cost from `from` to `to` through empty space: with the axis distances
    /// sorted as `a <= b <= c`, `a` corner steps, `b - a` edge steps and `c - b` face steps.
    fn heuristic(&self, from: IVec3, to: IVec3) -> u64 {
        let d = (to - from).abs();
        let mut axes = [d.x as u64, d.y as u64, d.z as u64];
        axes.sort_unstable();
        let [a, b, c] = axes;
        let [face, edge, corner] = self.costs;
        corner * a + edge * (b - a) + face * (c - b)
    }

    /// Whether the step from `cell` by `d` is legal: the target is passable, and with
    /// `whole_box` every other cell of the box between the two cells too.
    fn allows<W: VoxelWorld + ?Sized>(&self, world: &W, cell: IVec3, d: IVec3) -> bool {
        if !world.is_passable(cell + d) {
            return false;
        }
        if !self.whole_box {
            return true;
        }
        let (low, high) = (cell.min(cell + d), cell.max(cell + d));
        (low.x..=high.x).all(|x| {
            (low.y..=high.y)
                .all(|y| (low.z..=high.z).all(|z| world.is_passable(IVec3::new(x, y, z))))
        })
    }
}

fn search<W: VoxelWorld + ?Sized>(
    world: &W,
    start: IVec3,
    goal: IVec3,
    max_nodes: Option<u64>,
    rules: &Rules,
) -> Result<SearchResult> {
    let started = Instant::now();
    check_cell(world, start).map_err(|reason| Error::InvalidStart { pos: start, reason })?;
    check_cell(world, goal).map_err(|reason| Error::InvalidGoal { pos: goal, reason })?;
    if max_nodes == Some(0) {
        return Err(Error::ZeroBudget);
    }
    if world.bounds().is_none() && max_nodes.is_none() {
        return Err(Error::Unbounded);
    }
    let max_nodes = max_nodes.unwrap_or(u64::MAX);

    // Best known cost and parent of every generated cell; the start is its own parent.
    let mut reached: AHashMap<IVec3, (u64, IVec3)> = AHashMap::new();
    let mut closed: AHashSet<IVec3> = AHashSet::new();
    let mut open = BinaryHeap::new();
    let mut stats = SearchStats::default();
    reached.insert(start, (0, start));
    open.push(Open {
        f: rules.heuristic(start, goal),
        g: 0,
        cell: start,
    });
    stats.generated = 1;
    let mut best = (rules.heuristic(start, goal), 0, start);

    while let Some(Open { g, cell, .. }) = open.pop() {
        if closed.contains(&cell) || reached.get(&cell).is_some_and(|&(known, _)| g > known) {
            continue;
        }
        if cell == goal {
            return Ok(finish(SearchStatus::Found, cell, &reached, stats, started));
        }
        if stats.expanded >= max_nodes {
            return Ok(finish(
                SearchStatus::Partial,
                best.2,
                &reached,
                stats,
                started,
            ));
        }
        closed.insert(cell);
        stats.expanded += 1;
        for &(d, _) in &STEPS {
            let next = cell + d;
            if closed.contains(&next) || !rules.allows(world, cell, d) {
                continue;
            }
            let axes = usize::from(d.x != 0) + usize::from(d.y != 0) + usize::from(d.z != 0);
            let step = rules.costs[axes - 1];
            let next_g = g + step;
            if reached
                .get(&next)
                .is_some_and(|&(known, _)| known <= next_g)
            {
                continue;
            }
            reached.insert(next, (next_g, cell));
            let h = rules.heuristic(next, goal);
            open.push(Open {
                f: next_g + h,
                g: next_g,
                cell: next,
            });
            stats.generated += 1;
            if (h, next_g) < (best.0, best.1) {
                best = (h, next_g, next);
            }
        }
    }
    stats.elapsed = started.elapsed();
    Ok(SearchResult::unreachable(stats))
}

fn finish(
    status: SearchStatus,
    end: IVec3,
    reached: &AHashMap<IVec3, (u64, IVec3)>,
    mut stats: SearchStats,
    started: Instant,
) -> SearchResult {
    let mut path = vec![end];
    let mut cell = end;
    while let Some(&(_, parent)) = reached.get(&cell)
        && parent != cell
    {
        path.push(parent);
        cell = parent;
    }
    path.reverse();
    stats.elapsed = started.elapsed();
    SearchResult {
        status,
        path,
        cost: reached.get(&end).map(|&(g, _)| g),
        stats,
    }
}

#[cfg(test)]
mod tests {
    use voxnav::{ChunkedWorld, IVec3, SearchStatus};

    #[test]
    fn two_corner_steps_and_one_edge_step() {
        let world = ChunkedWorld::with_size(IVec3::new(4, 4, 4)).unwrap();
        let result = super::find_path(&world, IVec3::ZERO, IVec3::new(3, 3, 2), None).unwrap();
        assert_eq!(result.status, SearchStatus::Found);
        assert_eq!(result.cost, Some(2 * super::CORNER_COST + super::EDGE_COST));
    }
}
