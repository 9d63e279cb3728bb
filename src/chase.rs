//! Many chasers, one moving target: [`ChaseField`].
//!
//! A search per chaser per move costs a thousand searches a tick when a thousand NPCs chase one
//! player. A chase field is one backward Dijkstra from the target over the compiled walk
//! graph's incoming moves: it gives every node within [`ChaseField::radius`] its exact cost to
//! the target, and a chaser anywhere in it steps to the neighbour that minimises move cost plus
//! that neighbour's cost to go ([`ChaseField::next_step`]): an optimal route for every chaser at
//! once, read one step at a time. When the target moves to another feet position the field is
//! built again around it ([`ChaseField::retarget`]), at most once per target move and never
//! per chaser; ticks in between cost only the chasers' steps.
//!
//! Memory: 16 bytes per graph id (the cost to go, the next node toward the target and a search
//! stamp: the records of the one search loop), allocated once and reused; a rebuild touches
//! only the nodes within the radius.
//!
//! ```
//! use voxnav::{Agent, Block, ChunkedWorld, IVec3, MoveCosts, Router};
//! use voxnav::chase::ChaseField;
//!
//! let mut world = ChunkedWorld::with_size(IVec3::new(16, 6, 16))?;
//! world.fill(IVec3::new(0, 0, 0), IVec3::new(15, 0, 15), Block::Solid)?;
//! let mut router = Router::new(Agent::default(), MoveCosts::default())?;
//! router.prepare(&world)?;
//! let graph = router.graph().expect("prepared");
//!
//! let mut field = ChaseField::new(MoveCosts::default(), 1_000);
//! field.retarget(graph, IVec3::new(12, 1, 12))?;
//! assert_eq!(field.cost_to_target(graph, IVec3::new(12, 1, 10)), Some(20));
//! // A chaser at (2, 1, 2) steps diagonally toward the target.
//! assert_eq!(field.next_step(graph, IVec3::new(2, 1, 2)), Some(IVec3::new(3, 1, 3)));
//! # Ok::<(), voxnav::Error>(())
//! ```

use glam::IVec3;

use crate::error::{Error, Result};
use crate::graph::{GraphSearch, NavGraph, NodeId};
use crate::moves::agent::MoveCosts;
use crate::search::Goal;
use crate::search::heuristic::{Estimator, Heuristic, HeuristicKind};
use crate::world::InvalidFeet;

/// The cost to the target of every graph node within a radius of it, rebuilt when the target
/// moves. See the [module docs](self).
#[derive(Clone)]
pub struct ChaseField {
    costs: MoveCosts,
    radius: u64,
    /// The target's node, when there is a field.
    target: Option<NodeId>,
    /// The graph's id bound when the field was built.
    bound: usize,
    /// The backward Dijkstra, whose records are the field: a cost to the target and the next
    /// node toward it per node id.
    search: GraphSearch,
    /// Nodes settled by the last rebuild.
    settled: usize,
}

impl std::fmt::Debug for ChaseField {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ChaseField")
            .field("radius", &self.radius)
            .field("target", &self.target)
            .field("settled", &self.settled)
            .field("search", &self.search)
            .finish_non_exhaustive()
    }
}

/// The goal of a chase field's Dijkstra: none, so that it settles every node within the
/// radius.
struct Everywhere;

impl Goal for Everywhere {
    #[inline]
    fn is_reached(&self, _: IVec3) -> bool {
        false
    }
    #[inline]
    fn estimate(&self, _: IVec3, _: &Estimator) -> u64 {
        0
    }
}

impl ChaseField {
    /// An empty field for chasers moving at `costs`, covering the nodes whose cost to the
    /// target is at most `radius` (in the units of `costs`: 10 per straight block by default,
    /// so 640 covers about 64 blocks of open ground).
    #[must_use]
    pub fn new(costs: MoveCosts, radius: u64) -> Self {
        Self {
            costs,
            radius,
            target: None,
            bound: 0,
            search: GraphSearch::pricing_through_graph(costs),
            settled: 0,
        }
    }

    /// The radius, in cost units.
    #[must_use]
    pub fn radius(&self) -> u64 {
        self.radius
    }

    /// How many nodes the last build reached.
    #[must_use]
    pub fn settled(&self) -> usize {
        self.settled
    }

    /// Points the field at the feet position `target` of `graph`: builds it again when the
    /// target moved to another node since the last call (or the graph has more ids, or
    /// [`ChaseField::invalidate`] was called), and does nothing otherwise. Returns whether it
    /// built. After the graph changed (a block edit), call [`ChaseField::invalidate`] first:
    /// the field cannot tell by itself.
    ///
    /// # Errors
    /// [`Error::InvalidGoal`] when `target` is not a node of `graph`.
    pub fn retarget(&mut self, graph: &NavGraph, target: IVec3) -> Result<bool> {
        let Some(node) = graph.node(target) else {
            return Err(Error::InvalidGoal {
                pos: target,
                reason: InvalidFeet::NotInGraph,
            });
        };
        if self.target == Some(node) && self.bound == graph.id_bound() {
            return Ok(false);
        }
        self.build(graph, node);
        Ok(true)
    }

    /// Forgets the field: the next [`ChaseField::retarget`] builds it again.
    pub fn invalidate(&mut self) {
        self.target = None;
    }

    /// The backward Dijkstra from `target` over incoming moves, out to the radius: the one
    /// search loop over the graph read backwards, with no goal and no estimate.
    fn build(&mut self, graph: &NavGraph, target: NodeId) {
        let zero = Heuristic::new(HeuristicKind::Zero).estimator(graph.agent(), &self.costs);
        let (_, stats) =
            self.search
                .search_backward(graph, target, &Everywhere, &zero, Some(self.radius), None);
        self.settled = stats.expanded as usize;
        self.target = Some(target);
        self.bound = graph.id_bound();
    }

    /// The cost of the cheapest route from the feet position `from` to the target, when
    /// `from` lies within the radius.
    #[must_use]
    pub fn cost_to_target(&self, graph: &NavGraph, from: IVec3) -> Option<u64> {
        let node = graph.node(from)?;
        self.target?;
        self.search.cost_to_target(node)
    }

    /// The next feet position on a cheapest route from `from` to the target: the neighbour
    /// minimising move cost plus its cost to the target. `None` at the target, outside the
    /// radius, or when `from` is not a node of `graph`.
    #[must_use]
    pub fn next_step(&self, graph: &NavGraph, from: IVec3) -> Option<IVec3> {
        let node = graph.node(from)?;
        if self.target.is_none_or(|target| target == node)
            || self.search.cost_to_target(node).is_none()
        {
            return None;
        }
        let mut best: Option<(u64, IVec3)> = None;
        graph.for_each_move(node, &self.costs, |step| {
            if let Some(to_go) = self.search.cost_to_target(step.node) {
                let total = u64::from(step.cost) + to_go;
                if best.is_none_or(|(cost, _)| total < cost) {
                    best = Some((total, step.feet));
                }
            }
        });
        best.map(|(_, feet)| feet)
    }
}
