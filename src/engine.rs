//! The engines behind [`Router`](crate::Router), for experts who want one directly.
//!
//! Most programs need only the [`Router`](crate::Router): it picks among these by itself. Reach
//! for an engine when you need what the router does not offer: the explored set of a search,
//! a graph kept by hand, an index shared between routers, incremental replanning state.
//!
//! | engine | what it is | home module (design notes) |
//! |---|---|---|
//! | [`Pathfinder`] | A* reading the world through the walking, flying or swimming rules, on any world | [`crate::search`] |
//! | [`NavGraph`], [`GraphSearch`] | the walk graph compiled into dense arrays, its local updates, A* over it | [`crate::graph`] |
//! | [`ReachIndex`], [`Navigator`], [`IndexedRouter`] | reachability labels that answer unreachable goals with no search | [`crate::reach`] |
//! | [`BatchRouter`] | many queries at once, on rayon's threads or one | [`crate::batch`] |
//! | [`DStarLite`] | incremental replanning state (the [`Replanner`](crate::Replanner) picks it when it pays) | [`crate::replan`] |
//! | [`ChaseField`] | one backward Dijkstra shared by many chasers of one target | [`crate::chase`] |
//! | [`JumpSearch`] | exact jump point search for fliers and swimmers (box rule, heights 1 to 3, octile costs); 5.3x faster than the flier A* on Moving AI's Simple map, 3.2x on small pillars, 2.3x on a large cluttered world (`cargo bench --bench jps3d`); the router picks it for single-block goals under the default heuristic ([`Engine::JumpPoints`](crate::Engine::JumpPoints)) | [`crate::search::jps3d`] |
//! | [`JumpTables`] | a flier's or swimmer's face and edge jumps precomputed for a bounded world (24 bytes per cell), updated locally after block edits: jump point search reads them and runs 20x faster than the flier A* on Simple, 3.8x to 5x on the large cluttered world (204.5 MB of tables), depending on the pairs drawn; [`Router::prepare`](crate::Router::prepare) builds them | [`crate::search::jps3d`] |
//! | [`Hierarchy`], [`HierSearch`] | chunk-column cells over the walk graph with exact portal-to-portal tables: exact long routes, reachability from the cells' components, cell-local updates; today slower than A* over the graph on hilly terrain, so the router does not pick it | [`crate::hier`] |
//! | [`Abstraction`], [`AbstractSearch`] | HPA*-style abstraction over the walk graph (portals on chunk borders, exact in-cell tables, landmarks, smoothing windows): long routes 19x faster than A* over the graph at 2048 blocks, 0.83% above the optimum on average, no proven bound; the router sends walkers' routes longer than a chunk through it unless told not to ([`Router::with_long_routes`](crate::Router::with_long_routes)) | [`crate::hier`] |
//! | [`route_toward`] | a route toward a goal beyond the loaded area, ending at its edge ([`Router::route_toward`](crate::Router::route_toward)) | [`crate::reach`] |
//! | [`GridPlanner`](crate::flat::GridPlanner) | 2D grids answered in 2D terms, jump point search on uniform grids | [`crate::flat`] |
//!
//! The walking rules themselves ([`neighbours`], [`move_in_direction`], [`ladder_climb`], and
//! [`BoxView`], the view of the world through which a body wider than a block follows them) and
//! the heuristics ([`Heuristic`], [`Estimator`]) are here too, for tools that reason about
//! single moves.

pub use crate::batch::BatchRouter;
pub use crate::chase::ChaseField;
pub use crate::graph::{GraphMove, GraphSearch, GraphUpdate, NavGraph, NodeId};
pub use crate::hier::{
    AbstractSearch, Abstraction, DIRECT_CELLS, HierSearch, Hierarchy, PROBE_BLOCKS,
};
pub use crate::moves::agent::OCTILE_SCALE;
pub use crate::moves::pathcheck::{PathCheck, move_between};
pub use crate::moves::{
    BoxView, DIRECTIONS, Move, MoveKind, ladder_climb, move_in_direction, neighbours, terrain_cost,
};
pub use crate::reach::{
    EdgeRoute, IndexSlot, IndexedRouter, Navigator, Reach, ReachIndex, route_toward,
};
pub use crate::replan::{DStarLite, Replan, ReplanMethod};
pub use crate::search::heuristic::{Estimator, Heuristic, HeuristicKind};
pub use crate::search::jps3d::{JumpSearch, JumpTables};
pub use crate::search::{AnyOfGoal, AwayFromGoal, ColumnGoal, Pathfinder, SearchStats};
