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
//! Memory: 12 bytes per graph id (the cost to go and a generation stamp), allocated once and
//! reused; a rebuild touches only the nodes within the radius.
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

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use glam::IVec3;

use crate::error::{Error, Result};
use crate::graph::{NavGraph, NodeId};
use crate::moves::agent::MoveCosts;
use crate::world::InvalidFeet;

/// The cost to the target of every graph node within a radius of it, rebuilt when the target
/// moves. See the [module docs](self).
#[derive(Clone)]
pub struct ChaseField {
    costs: MoveCosts,
    radius: u64,
    /// The target's node, when there is a field.
    target: Option<NodeId>,
    /// Cost to the target per node id, valid where `stamp` equals `generation`.
    cost: Vec<u64>,
    stamp: Vec<u32>,
    generation: u32,
    open: BinaryHeap<Reverse<(u64, NodeId)>>,
    /// Nodes settled by the last rebuild.
    settled: usize,
}

impl std::fmt::Debug for ChaseField {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ChaseField")
            .field("radius", &self.radius)
            .field("target", &self.target)
            .field("settled", &self.settled)
            .field("bytes", &(self.cost.len() * 12))
            .finish_non_exhaustive()
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
            cost: Vec::new(),
            stamp: Vec::new(),
            generation: 0,
            open: BinaryHeap::new(),
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
        if self.target == Some(node) && self.cost.len() == graph.id_bound() {
            return Ok(false);
        }
        self.build(graph, node);
        Ok(true)
    }

    /// Forgets the field: the next [`ChaseField::retarget`] builds it again.
    pub fn invalidate(&mut self) {
        self.target = None;
    }

    /// The backward Dijkstra from `target` over incoming moves, out to the radius.
    fn build(&mut self, graph: &NavGraph, target: NodeId) {
        let bound = graph.id_bound();
        if self.cost.len() != bound {
            self.cost = vec![0; bound];
            self.stamp = vec![0; bound];
            self.generation = 0;
        }
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            self.stamp.fill(0);
            self.generation = 1;
        }
        let generation = self.generation;
        self.open.clear();
        self.settled = 0;
        self.target = Some(target);
        self.cost[target as usize] = 0;
        self.stamp[target as usize] = generation;
        self.open.push(Reverse((0, target)));
        while let Some(Reverse((cost, node))) = self.open.pop() {
            if cost > self.cost[node as usize] {
                continue;
            }
            self.settled += 1;
            let (costs, radius) = (&self.costs, self.radius);
            let (cost_of, stamp, open) = (&mut self.cost, &mut self.stamp, &mut self.open);
            graph.for_each_incoming(node, costs, |step| {
                let through = cost + u64::from(step.cost);
                let source = step.node as usize;
                if through <= radius && (stamp[source] != generation || through < cost_of[source]) {
                    stamp[source] = generation;
                    cost_of[source] = through;
                    open.push(Reverse((through, step.node)));
                }
            });
        }
    }

    /// The cost of the cheapest route from the feet position `from` to the target, when
    /// `from` lies within the radius.
    #[must_use]
    pub fn cost_to_target(&self, graph: &NavGraph, from: IVec3) -> Option<u64> {
        let node = graph.node(from)? as usize;
        (self.target.is_some() && self.stamp.get(node) == Some(&self.generation))
            .then(|| self.cost[node])
    }

    /// The next feet position on a cheapest route from `from` to the target: the neighbour
    /// minimising move cost plus its cost to the target. `None` at the target, outside the
    /// radius, or when `from` is not a node of `graph`.
    #[must_use]
    pub fn next_step(&self, graph: &NavGraph, from: IVec3) -> Option<IVec3> {
        let node = graph.node(from)?;
        if self.target == Some(node) || self.stamp.get(node as usize) != Some(&self.generation) {
            return None;
        }
        let mut best: Option<(u64, IVec3)> = None;
        graph.for_each_move(node, &self.costs, |step| {
            let id = step.node as usize;
            if self.stamp[id] == self.generation {
                let total = u64::from(step.cost) + self.cost[id];
                if best.is_none_or(|(cost, _)| total < cost) {
                    best = Some((total, step.feet));
                }
            }
        });
        best.map(|(_, feet)| feet)
    }
}
