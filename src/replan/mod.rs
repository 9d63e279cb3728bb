//! Incremental replanning: D* Lite (Koenig and Likhachev, 2002) over the walking-rule graph,
//! and a [`Replanner`] that replans with lower bounds learned from its plan.
//!
//! # The replanner
//!
//! [`Replanner::plan`] runs an A* backward from the goal over the compiled walk graph: every
//! position it expands learns its exact cost to the goal (the route and the band around it),
//! and every other position a lower bound from the search's last key (see `learned.rs`).
//! Together these bounds are a consistent heuristic. After block changes,
//! [`Replanner::replan`] updates the graph locally, then repairs the bounds exactly: only the
//! moves out of the nodes the update reports as changed can break consistency; each such
//! node takes its lookahead (cheapest move plus the bound at its end) when that is higher, or
//! when it is lower and then its predecessors are checked in turn, for a bounded number of
//! nodes; the rest become *sources* whose lookahead caps the bounds around them
//! (`est(n, u) + val(u)`), which keeps the bounds admissible and consistent whatever moves
//! appeared. Then the rest of the planned route answers when it is intact and costs exactly
//! the bound at the agent's position ([`ReplanMethod::Kept`]: nothing can be cheaper), and
//! otherwise an A* over the graph from the agent, with the bounds as its heuristic
//! ([`ReplanMethod::Adapted`]). With exact bounds along the old route, a change off the route
//! costs little more than walking the route; a change that makes the route dearer by `d`
//! costs the positions whose old route was less than `d` dearer than the optimum. The bounds
//! never fall below the plain octile estimate, so no search is guided worse than a fresh A*.
//! Routes cost exactly what a fresh [`Pathfinder`](crate::engine::Pathfinder) search finds.
//!
//! The `replan` example's `--bench` mode measures it on the default terrain, on routes of
//! 200+ blocks with 1 to 10 cells changed near the route ahead of the agent, against a fresh
//! A* over the compiled walk graph and D* Lite's repair.
//!
//! # D* Lite
//!
//! D* Lite searches backward, from the goal toward the agent: every node it settles knows its
//! cost *to the goal*. When blocks change, only the nodes whose moves read a changed cell get
//! their costs recomputed, and the search repairs the part of its work those changes touch;
//! as the agent walks, the start moves and the old work stays valid (the `km` term of the
//! keys accounts for the moved heuristic origin). Routes are optimal (the default octile
//! heuristic is admissible and consistent, also with the terrain and ladder rules) and cost
//! exactly what a fresh search from the same position costs, for every
//! [`MoveCosts`](crate::MoveCosts) that validation accepts, also when moves cost nothing
//! (free ladder rungs): D* Lite compares distances by cost and then by number of moves, so
//! that positions joined by free moves cannot keep vouching for each other's stale costs.
//!
//! Its repair work grows with the number of settled nodes whose cost-to-goal a change alters:
//! all those "behind" the change as seen from the goal, each at several times the cost of an
//! A* expansion (D* Lite reads the moves into a node as well as out of it, and keeps two
//! costs and a key per node), which is why the [`Replanner`] does not use it.
//!
//! D* Lite reads its moves from a table of the graph's moves in both directions (see
//! `table.rs`): each node's lists are read from the graph the first time the search asks for
//! them, priced once, and patched from each update's changed nodes. Its queue is a 4-ary heap
//! indexed by node id, whose entries move in place when a key changes.
//!
//! # What a replan re-examines
//!
//! Both run over the compiled walk graph ([`NavGraph`]), and a replan
//! first updates the graph from the changed cells
//! ([`NavGraph::update`](crate::graph::NavGraph::update)), which re-derives only the nodes
//! whose moves those cells can affect. This relies on a world's answers being local, as the
//! graph's [local updates](crate::graph#local-updates) describe.

mod adapted;
mod dstar;
mod learned;
mod queue;
mod replanner;
mod table;

pub use dstar::DStarLite;
pub use replanner::{Replan, ReplanMethod, Replanner};

use glam::IVec3;

use crate::error::{Error, Result};
use crate::graph::NavGraph;
use crate::moves::agent::Agent;
use crate::world::VoxelWorld;

/// What changed since the last plan or replan, as a replan is told it.
#[derive(Clone, Copy)]
enum Changed<'a> {
    /// A list of cells, trusted to be complete ([`NavGraph::update`]).
    Cells(&'a [IVec3]),
    /// A [`ChunkedWorld`](crate::ChunkedWorld)'s change log, which says what it covers
    /// ([`NavGraph::apply_changes`]).
    Log(&'a crate::world::chunked::Changes),
}

impl Changed<'_> {
    /// Updates `graph` from these changes in `world`.
    fn apply<W: VoxelWorld + ?Sized>(
        self,
        graph: &mut NavGraph,
        world: &W,
    ) -> Result<crate::graph::GraphUpdate> {
        match self {
            Changed::Cells(cells) => graph.update(world, cells.iter().copied()),
            Changed::Log(changes) => graph.apply_changes(world, changes),
        }
    }
}

/// Refuses a start or a goal that is not a valid position of `world` for `agent` (a valid
/// feet position, or a swimming position for an agent that swims).
fn check_ends<W: VoxelWorld + ?Sized>(
    world: &W,
    agent: &Agent,
    start: IVec3,
    goal: IVec3,
) -> Result<()> {
    agent
        .check_position(world, start)
        .map_err(|reason| Error::InvalidStart { pos: start, reason })?;
    agent
        .check_position(world, goal)
        .map_err(|reason| Error::InvalidGoal { pos: goal, reason })
}

/// The walk graph a planner named `planner` plans over from `start` to `goal` in `world`:
/// both ends checked, then compiled (a bounded world only).
fn compile_for<W: VoxelWorld + ?Sized>(
    world: &W,
    agent: &Agent,
    (start, goal): (IVec3, IVec3),
    planner: &'static str,
) -> Result<NavGraph> {
    check_ends(world, agent, start, goal)?;
    if world.bounds().is_none() {
        return Err(Error::NeedsBounds(planner));
    }
    NavGraph::compile(world, agent)
}

/// Refuses a walk graph compiled for another agent than the planner's, or stale.
fn check_given(graph: &NavGraph, agent: &Agent) -> Result<()> {
    if graph.agent() != agent {
        return Err(Error::InvalidSetting(format!(
            "the walk graph was compiled for agent {:?}, not for {:?}",
            graph.agent(),
            agent
        )));
    }
    graph.check_current()
}

/// Random block worlds for the unit tests of this module.
#[cfg(test)]
mod test_worlds {
    use glam::IVec3;

    use crate::terrain::SplitMix64;
    use crate::world::chunked::{Block, ChunkedWorld};

    /// A cell of a world of `size` above its floor layer.
    pub(super) fn cell(rng: &mut SplitMix64, size: IVec3) -> IVec3 {
        IVec3::new(
            rng.below(size.x as u64) as i32,
            1 + rng.below(size.y as u64 - 1) as i32,
            rng.below(size.z as u64) as i32,
        )
    }

    /// A world of `size` with a solid floor layer and `count` random cells set to random
    /// blocks of `kinds`.
    pub(super) fn floor_and_blocks(
        rng: &mut SplitMix64,
        size: IVec3,
        kinds: &[Block],
        count: usize,
    ) -> ChunkedWorld {
        let mut world = ChunkedWorld::with_size(size).unwrap();
        world
            .fill(
                IVec3::ZERO,
                IVec3::new(size.x - 1, 0, size.z - 1),
                Block::Solid,
            )
            .unwrap();
        for _ in 0..count {
            let at = cell(rng, size);
            world
                .set(at, kinds[rng.below(kinds.len() as u64) as usize])
                .unwrap();
        }
        world
    }
}
