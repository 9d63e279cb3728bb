//! Path checks: is a route found earlier still walkable in the world as it is now?
//!
//! Replaying a route move by move costs a handful of cell look-ups per step, far less than a
//! new search: an NPC can check the rest of its route every time the world changes and search
//! again only when a step broke.

use glam::IVec3;

use crate::moves::agent::{Agent, MoveCosts};
use crate::moves::{DIRECTIONS, Move, ladder_climb, move_in_direction};
use crate::world::VoxelWorld;
use crate::world::key::in_key_range;

/// What [`check_path`] found.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct PathCheck {
    /// The index of the first route position the agent can no longer reach along the route:
    /// `Some(0)` when the start is no longer a valid position for the agent (a valid feet
    /// position, or a swimming position for an agent that swims), `Some(i)` when the move
    /// from `path[i - 1]` to `path[i]` is no longer a legal move; `None` when the whole route
    /// is still legal.
    pub first_broken: Option<usize>,
    /// Whether every move after the first broken one is still legal (from a still valid feet
    /// position): the route can be repaired by a detour around the broken place alone. `true`
    /// when nothing is broken.
    pub rest_legal: bool,
    /// The route's cost in the world as it is now (terrain costs may have changed), when every
    /// move is legal; `None` otherwise.
    pub cost: Option<u64>,
}

impl PathCheck {
    /// Whether the whole route is still legal.
    #[must_use]
    pub fn is_legal(&self) -> bool {
        self.first_broken.is_none()
    }
}

/// The move from the valid feet position `from` to `to` under the walking rules, if there is
/// one: `to - from` must be one of [`DIRECTIONS`] up to a change of height (the move in that
/// direction must land exactly on `to`), or one block straight up or down (a ladder climb).
/// For a flier or swimmer, the free move of [`crate::moves::fly::free_move`].
/// `None` when either position lies outside the searchable key range (no valid feet position
/// does).
#[must_use]
pub fn move_between<W: VoxelWorld + ?Sized>(
    world: &W,
    agent: &Agent,
    costs: &MoveCosts,
    from: IVec3,
    to: IVec3,
) -> Option<Move> {
    if !in_key_range(from) || !in_key_range(to) {
        return None;
    }
    let delta = to - from;
    if agent.movement.is_free() {
        return crate::moves::fly::free_move(world, agent, costs, from, delta);
    }
    if delta.x == 0 && delta.z == 0 {
        return match delta.y {
            1 => ladder_climb(world, agent, costs, from, true),
            -1 => ladder_climb(world, agent, costs, from, false),
            _ => None,
        };
    }
    let direction = IVec3::new(delta.x, 0, delta.z);
    let allowed = if agent.diagonals {
        &DIRECTIONS[..]
    } else {
        &DIRECTIONS[..4]
    };
    if !allowed.contains(&direction) {
        return None;
    }
    move_in_direction(world, agent, costs, from, direction).filter(|m| m.feet == to)
}

/// Checks a route (feet positions, start first) against the world as it is now, without a
/// search: each move is replayed with the walking rules. An empty route is legal and costs 0.
///
/// ```
/// use voxnav::IVec3;
/// use voxnav::{Agent, Block, ChunkedWorld, MoveCosts};
/// use voxnav::check_path;
///
/// let mut world = ChunkedWorld::with_size(IVec3::new(6, 4, 1))?;
/// world.fill(IVec3::new(0, 0, 0), IVec3::new(5, 0, 0), Block::Solid)?;
/// let route: Vec<IVec3> = (0..6).map(|x| IVec3::new(x, 1, 0)).collect();
/// let (agent, costs) = (Agent::default(), MoveCosts::default());
/// assert_eq!(check_path(&world, &agent, &costs, &route).cost, Some(50));
///
/// world.set(IVec3::new(3, 2, 0), Block::Solid)?; // a block at head height
/// let check = check_path(&world, &agent, &costs, &route);
/// assert_eq!(check.first_broken, Some(3));
/// assert!(!check.rest_legal); // (3, 1, 0) is no longer a valid feet position
/// # Ok::<(), voxnav::Error>(())
/// ```
#[must_use]
pub fn check_path<W: VoxelWorld + ?Sized>(
    world: &W,
    agent: &Agent,
    costs: &MoveCosts,
    path: &[IVec3],
) -> PathCheck {
    let Some(&start) = path.first() else {
        return PathCheck {
            first_broken: None,
            rest_legal: true,
            cost: Some(0),
        };
    };
    let mut first_broken = (!agent.is_valid_position(world, start)).then_some(0);
    let mut rest_legal = true;
    let mut cost = 0u64;
    for (i, pair) in path.windows(2).enumerate() {
        let (from, to) = (pair[0], pair[1]);
        // Before any break, `from` is valid (the start was checked and legal moves land on
        // valid positions); after one, it must be checked.
        let step = if first_broken.is_none() || agent.is_valid_position(world, from) {
            move_between(world, agent, costs, from, to)
        } else {
            None
        };
        match (step, first_broken) {
            (Some(m), _) => cost = cost.saturating_add(u64::from(m.cost)),
            (None, None) => first_broken = Some(i + 1),
            (None, Some(_)) => {
                rest_legal = false;
                break;
            }
        }
    }
    PathCheck {
        first_broken,
        rest_legal,
        cost: first_broken.is_none().then_some(cost),
    }
}
