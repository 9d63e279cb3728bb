//! Routes toward a goal beyond the loaded area: [`route_toward`] returns the best partial
//! route to the edge of what the world has loaded, and says so, so that an NPC walks toward
//! its target while the chunks in between load.

use glam::IVec3;

use crate::engine::Pathfinder;
use crate::error::{Error, Result};
use crate::search::heuristic::Estimator;
use crate::search::{Goal, SearchResult, SearchStatus};
use crate::world::{InvalidFeet, VoxelWorld};

/// What [`route_toward`] found: a search result, and whether it is a partial route that ends
/// at the edge of the loaded area because the goal lies beyond it (or can be reached only
/// through territory not loaded yet).
#[derive(Debug, Clone)]
pub struct EdgeRoute {
    /// The route: [`SearchStatus::Found`] to the goal itself, or, when `at_edge`,
    /// [`SearchStatus::Partial`] to the edge; otherwise whatever the search gave
    /// ([`SearchStatus::Unreachable`], or partial when a budget ran out).
    pub result: SearchResult,
    /// Whether `result` is a partial route to the edge of the loaded area, toward a goal
    /// beyond it: route again once more chunks have loaded.
    pub at_edge: bool,
}

/// Routes from `start` toward `goal` in a world that loads and unloads chunks
/// ([`VoxelWorld::is_unloaded`]): the route to `goal` when it is loaded and reachable;
/// otherwise, when `goal` lies in an unloaded chunk or no route through the loaded area
/// reaches it, the best partial route to the edge of the loaded area (a feet position next
/// to an unloaded column), flagged [`EdgeRoute::at_edge`].
///
/// The edge reached is the one an A* toward the goal pops first, so it minimises the cost
/// of the route to it plus the search's estimate from it to the goal: the best guess of a
/// whole route through the territory still unloaded (exactly the best edge under an
/// admissible and consistent heuristic, the default).
///
/// # Errors
/// As [`Pathfinder::find_path`], except that a goal in an unloaded chunk is not an error when
/// some edge of the loaded area can be reached (it stays
/// [`Error::InvalidGoal`] with [`InvalidFeet::Unloaded`] otherwise).
pub fn route_toward<W: VoxelWorld + ?Sized>(
    pathfinder: &mut Pathfinder,
    world: &W,
    start: IVec3,
    goal: IVec3,
    options: &crate::SearchOptions,
) -> Result<EdgeRoute> {
    let direct = pathfinder.find_path(world, start, goal, options);
    let unloaded_goal = matches!(
        direct,
        Err(Error::InvalidGoal {
            reason: InvalidFeet::Unloaded { .. },
            ..
        })
    );
    let answer = |direct: Result<SearchResult>| {
        direct.map(|result| EdgeRoute {
            result,
            at_edge: false,
        })
    };
    match &direct {
        Ok(result) if result.status != SearchStatus::Unreachable => return answer(direct),
        Err(_) if !unloaded_goal => return answer(direct),
        _ => {}
    }
    let edge = EdgeGoal { world, goal };
    let toward = pathfinder.search(world, start, &edge, options)?;
    if toward.status == SearchStatus::Found {
        return Ok(EdgeRoute {
            result: SearchResult {
                status: SearchStatus::Partial,
                ..toward
            },
            at_edge: true,
        });
    }
    // No edge within reach: the goal's own answer.
    answer(direct)
}

/// Reached at a feet position next to an unloaded column (one of the 8 around it, at the
/// feet's height), estimated toward the real goal.
struct EdgeGoal<'a, W: ?Sized> {
    world: &'a W,
    goal: IVec3,
}

impl<W: VoxelWorld + ?Sized> Goal for EdgeGoal<'_, W> {
    fn is_reached(&self, feet: IVec3) -> bool {
        crate::moves::DIRECTIONS
            .iter()
            .any(|&d| self.world.is_unloaded(feet + d))
    }

    fn estimate(&self, feet: IVec3, estimator: &Estimator) -> u64 {
        estimator.between(feet, self.goal)
    }
}
