//! Moving an entity along a route: [`PathFollower`], and [`snap_feet`] to turn an entity's
//! position into a feet position.
//!
//! A route is a list of feet positions (cells). A server moves entities in continuous
//! coordinates (`f64`, maybe mid-jump, on a slab, in water). Each tick the follower takes the
//! entity's position and answers where to steer (a point to move toward), whether to jump now,
//! which door to open, and how the following goes ([`FollowState`]):
//!
//! - it **skips waypoints the entity has already passed** (it looks a few waypoints ahead, so an
//!   entity pushed forward or one that overshot a corner does not turn back);
//! - it **cuts corners only where the body's swept box stays legal**: on a walk route, it aims
//!   at the farthest waypoint ahead on the same floor level such that the box of the entity's
//!   width, swept along the straight line to it, touches only cells that are valid feet
//!   positions at that level with the same floor height and no terrain terms (water, doors,
//!   hazards, slow floors, cobwebs); a flier aims along any line whose swept box stays in
//!   cells its body fits; a body wider than a block ([`Agent::width`]) cuts no corners: it
//!   steers to the centre of its columns at each waypoint in turn;
//! - it asks to **jump** when the next waypoint's floor is higher than a step (more than 9/16 of
//!   a block above the entity's feet, the rise the walking rules take without a jump) and the
//!   entity is close to it, and to **open** a door the route passes through;
//! - it reports [`FollowState::Stuck`] after [`FollowerConfig::stuck_ticks`] ticks without
//!   progress, and [`FollowState::OffRoute`] when the entity is further than
//!   [`FollowerConfig::off_route_distance`] from the route; both set [`Steer::replan`].
//!
//! Per tick the follower does a few float operations per waypoint it looks at; the corner cut
//! reads the world only when the entity reaches a new waypoint.
//!
//! ```
//! use voxnav::{Agent, Block, ChunkedWorld, DVec3, FollowState, IVec3, MoveCosts, PathFollower, Router};
//!
//! let mut world = ChunkedWorld::with_size(IVec3::new(16, 6, 16))?;
//! world.fill(IVec3::new(0, 0, 0), IVec3::new(15, 0, 15), Block::Solid)?;
//! let router = Router::new(Agent::default(), MoveCosts::default())?;
//! let route = router.route(&world, IVec3::new(1, 1, 1), IVec3::new(9, 1, 1))?;
//!
//! let mut follower = PathFollower::new(&world, &Agent::default(), route.path);
//! let steer = follower.tick(&world, DVec3::new(1.5, 1.0, 1.5));
//! assert_eq!(steer.state, FollowState::Following);
//! // Open floor: it aims straight at the last waypoint.
//! assert_eq!(steer.target, DVec3::new(9.5, 1.0, 1.5));
//! assert_eq!(follower.tick(&world, DVec3::new(9.45, 1.0, 1.52)).state, FollowState::Arrived);
//! # Ok::<(), voxnav::Error>(())
//! ```

use glam::{DVec3, IVec3};

use crate::moves::agent::Agent;
use crate::world::key::in_key_range;
use crate::world::{FULL_BLOCK, TerrainFlags, VoxelWorld, is_valid_feet};

/// How a [`PathFollower`] judges the entity's progress. All distances are in blocks.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FollowerConfig {
    /// Half the entity's width: the corner cut keeps a box this far to each side of the line
    /// clear. Defaults to 0.3 (a zombie, villager or player is 0.6 wide).
    pub half_width: f64,
    /// How close (horizontally) the entity's position must come to a waypoint's centre for the
    /// waypoint to count as reached. Defaults to 0.35.
    pub reach_radius: f64,
    /// How many waypoints ahead the follower looks, for passed waypoints and for corner cuts.
    /// Defaults to 8.
    pub lookahead: usize,
    /// Ticks without progress after which the state is [`FollowState::Stuck`]. Defaults to 40
    /// (two seconds at 20 ticks per second).
    pub stuck_ticks: u32,
    /// How far (horizontally, or vertically beyond a fall) the entity may be from the route
    /// before the state is [`FollowState::OffRoute`]. Defaults to 2.5.
    pub off_route_distance: f64,
    /// Whether corners are cut (string pulling). Defaults to `true`.
    pub cut_corners: bool,
    /// How far a cut may stray from the route: every waypoint it skips lies within this
    /// distance of the straight line the entity follows. Defaults to 1.0.
    pub max_deviation: f64,
}

impl Default for FollowerConfig {
    fn default() -> Self {
        Self {
            half_width: 0.3,
            reach_radius: 0.35,
            lookahead: 8,
            stuck_ticks: 40,
            off_route_distance: 2.5,
            cut_corners: true,
            max_deviation: 1.0,
        }
    }
}

/// How following a route goes, as [`PathFollower::tick`] reports it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum FollowState {
    /// On the way.
    Following,
    /// At the last waypoint.
    Arrived,
    /// No progress for [`FollowerConfig::stuck_ticks`] ticks: something blocks the way.
    Stuck,
    /// The entity is away from the route (knocked back, pushed, fell).
    OffRoute,
}

/// What the entity should do this tick.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Steer {
    /// The point to move toward: a waypoint's centre, at the height of the floor it stands on.
    pub target: DVec3,
    /// Whether to jump now.
    pub jump: bool,
    /// A door (or fence gate) the entity is about to pass through, to open.
    pub door: Option<IVec3>,
    /// How following goes.
    pub state: FollowState,
    /// Whether a new route should be searched (the entity is stuck or off the route).
    pub replan: bool,
}

/// What the follower knows of one waypoint, read from the world once.
#[derive(Debug, Clone, Copy)]
struct Waypoint {
    feet: IVec3,
    /// The height of the floor the feet stand on, in blocks.
    floor: f64,
    door: bool,
}

/// Follows one route, tick by tick. See the [module docs](self).
#[derive(Debug, Clone)]
pub struct PathFollower {
    waypoints: Vec<Waypoint>,
    agent: Agent,
    config: FollowerConfig,
    /// The last waypoint reached.
    reached: usize,
    /// The waypoint steered to.
    aim: usize,
    /// `reached` when `aim` was chosen.
    aimed_from: Option<usize>,
    /// The entity's position when `aim` was chosen: the start of the line it follows.
    origin: DVec3,
    /// Progress: the waypoint and the smallest distance to the next one seen so far.
    best: (usize, f64),
    idle_ticks: u32,
}

impl PathFollower {
    /// A follower of `path` (feet positions, as a route's
    /// [`SearchResult::path`](crate::SearchResult::path)) for `agent`, with default settings.
    #[must_use]
    pub fn new<W: VoxelWorld + ?Sized>(world: &W, agent: &Agent, path: Vec<IVec3>) -> Self {
        Self::with_config(world, agent, path, FollowerConfig::default())
    }

    /// A follower of `path` with `config`.
    #[must_use]
    pub fn with_config<W: VoxelWorld + ?Sized>(
        world: &W,
        agent: &Agent,
        path: Vec<IVec3>,
        config: FollowerConfig,
    ) -> Self {
        let free = agent.movement.is_free();
        let waypoints = path
            .into_iter()
            .map(|feet| Waypoint {
                feet,
                floor: if free {
                    f64::from(feet.y)
                } else {
                    body_floor(world, agent, feet)
                },
                door: world.terrain(feet).contains(TerrainFlags::IN_DOOR),
            })
            .collect();
        Self {
            waypoints,
            agent: *agent,
            config,
            reached: 0,
            aim: 0,
            aimed_from: None,
            origin: DVec3::ZERO,
            best: (0, f64::INFINITY),
            idle_ticks: 0,
        }
    }

    /// The route's feet positions.
    pub fn path(&self) -> impl ExactSizeIterator<Item = IVec3> + '_ {
        self.waypoints.iter().map(|w| w.feet)
    }

    /// The index of the last waypoint the entity reached.
    #[must_use]
    pub fn reached(&self) -> usize {
        self.reached
    }

    /// The index of the waypoint steered toward.
    #[must_use]
    pub fn aim(&self) -> usize {
        self.aim
    }

    /// The point of waypoint `index` an entity steers to: the centre of the body's cells (the
    /// feet cell's centre for a one-wide agent; a wider body's feet cell is the corner of its
    /// `width x width` columns, see [`crate::moves::wide`]) at the height of its floor.
    fn point(&self, index: usize) -> DVec3 {
        let w = &self.waypoints[index];
        let half = f64::from(self.agent.width) / 2.0;
        DVec3::new(
            f64::from(w.feet.x) + half,
            w.floor,
            f64::from(w.feet.z) + half,
        )
    }

    /// Whether `position` is at waypoint `index`: within the reach radius horizontally and level
    /// with it.
    fn is_at(&self, position: DVec3, index: usize) -> bool {
        self.level_with(position, index)
            && horizontal_distance(position, self.point(index)) < self.config.reach_radius
    }

    /// Whether `position` is level with waypoint `index`: a walker's feet on (or a little
    /// above, mid-step) the waypoint's floor, not still falling toward it; a flier within half
    /// a block of its height.
    fn level_with(&self, position: DVec3, index: usize) -> bool {
        let dy = position.y - self.point(index).y;
        if self.agent.movement.is_free() {
            dy.abs() < 0.5
        } else {
            dy > -0.5 && dy < 0.35
        }
    }

    /// One tick: where the entity at `position` should steer. Call it once per game tick
    /// with the entity's current position (its feet, as the server keeps it).
    pub fn tick<W: VoxelWorld + ?Sized>(&mut self, world: &W, position: DVec3) -> Steer {
        let Some(last) = self.waypoints.len().checked_sub(1) else {
            return Steer {
                target: position,
                jump: false,
                door: None,
                state: FollowState::Arrived,
                replan: false,
            };
        };
        self.advance(position, last);
        if self.reached == last && self.is_at(position, last) {
            return self.steer(position, last, FollowState::Arrived);
        }
        if self.off_route(position) {
            return self.steer(
                position,
                (self.reached + 1).min(last),
                FollowState::OffRoute,
            );
        }
        let next = (self.reached + 1).min(last);
        let distance = horizontal_distance(position, self.point(next));
        if self.reached > self.best.0 || distance + 0.05 < self.best.1 {
            self.best = (self.reached, distance);
            self.idle_ticks = 0;
        } else {
            self.idle_ticks = self.idle_ticks.saturating_add(1);
        }
        if self.idle_ticks >= self.config.stuck_ticks {
            return self.steer(position, next, FollowState::Stuck);
        }
        if self.aimed_from != Some(self.reached) || self.aim <= self.reached {
            self.aim = if self.config.cut_corners {
                self.farthest_visible(world, position, next, last)
            } else {
                next
            };
            self.aimed_from = Some(self.reached);
            self.origin = position;
        }
        self.steer(position, self.aim, FollowState::Following)
    }

    /// Moves `reached` past the waypoints the entity has reached or passed: the farthest
    /// waypoint within the look-ahead that it stands at, then each segment whose end it has
    /// passed (its position projects beyond the segment's end at the segment's level).
    fn advance(&mut self, position: DVec3, last: usize) {
        let horizon = (self.reached + self.config.lookahead).min(last);
        if let Some(at) = (self.reached + 1..=horizon)
            .rev()
            .find(|&index| self.is_at(position, index))
        {
            self.reached = at;
        }
        // Cutting a corner, the entity passes beside the waypoints it skips: each counts as
        // passed once the entity's position, projected on the line it follows, is beyond the
        // waypoint's projection.
        if self.aim > self.reached + 1 && self.aimed_from == Some(self.reached) {
            let line = self.point(self.aim) - self.origin;
            let along = |p: DVec3| (p.x - self.origin.x) * line.x + (p.z - self.origin.z) * line.z;
            let here = along(position);
            if let Some(passed) = (self.reached + 1..self.aim)
                .rev()
                .find(|&index| here >= along(self.point(index)) && self.level_with(position, index))
            {
                self.reached = passed;
            }
        }
        while self.reached < last {
            let from = self.point(self.reached);
            let to = self.point(self.reached + 1);
            let along = to - from;
            let length2 = along.x * along.x + along.z * along.z;
            let offset = position - from;
            let passed = length2 > 0.0 && (offset.x * along.x + offset.z * along.z) >= length2;
            if passed
                && self.level_with(position, self.reached + 1)
                && horizontal_distance(position, to) < 1.0
            {
                self.reached += 1;
            } else {
                break;
            }
        }
    }

    /// Whether `position` is further from the route around the reached waypoint than the
    /// configured distance.
    fn off_route(&self, position: DVec3) -> bool {
        let last = self.waypoints.len() - 1;
        let from = self.reached.saturating_sub(1);
        let to = (self.reached + 2).max(self.aim).min(last);
        let fall = f64::from(self.agent.max_drop) + 1.5;
        let limit = self.config.off_route_distance;
        let near_level = |point: DVec3| {
            let dy = position.y - point.y;
            if self.agent.movement.is_free() {
                dy.abs() <= limit
            } else {
                dy <= 1.5 && dy >= -fall
            }
        };
        let near_waypoint = (from..=to).any(|index| {
            let point = self.point(index);
            near_level(point) && horizontal_distance(position, point) <= limit
        });
        let near_cut = self.aim > self.reached + 1 && {
            let target = self.point(self.aim);
            near_level(target) && segment_distance(position, self.origin, target) <= limit
        };
        !(near_waypoint || near_cut)
    }

    /// The farthest waypoint from `next` on within the look-ahead that the entity at
    /// `position` can move to in a straight line (see the [module docs](self)); `next` when
    /// none further is.
    fn farthest_visible<W: VoxelWorld + ?Sized>(
        &self,
        world: &W,
        position: DVec3,
        next: usize,
        last: usize,
    ) -> usize {
        let horizon = (self.reached + self.config.lookahead).min(last);
        let mut aim = next;
        for candidate in next + 1..=horizon {
            let previous = &self.waypoints[candidate - 1];
            let waypoint = &self.waypoints[candidate];
            if waypoint.door || previous.door {
                break;
            }
            let target = self.point(candidate);
            if (next..candidate).any(|index| {
                segment_distance(self.point(index), position, target) > self.config.max_deviation
            }) {
                break;
            }
            // A body wider than a block steers from waypoint to waypoint: the swept test below
            // checks one-wide feet positions, which says nothing of a wider box.
            let clear = if self.agent.width > 1 {
                false
            } else if self.agent.movement.is_free() {
                self.free_line_clear(world, position, self.point(candidate))
            } else {
                waypoint.feet.y == previous.feet.y
                    && same_floor(waypoint.floor, previous.floor)
                    && self.walk_line_clear(world, position, candidate)
            };
            if !clear {
                break;
            }
            aim = candidate;
        }
        aim
    }

    /// Whether the box of the entity's width swept from `position` to waypoint `index` on its
    /// floor level touches only cells that are valid feet positions at that level, with the
    /// same floor height and plain terrain.
    fn walk_line_clear<W: VoxelWorld + ?Sized>(
        &self,
        world: &W,
        position: DVec3,
        index: usize,
    ) -> bool {
        let waypoint = self.waypoints[index];
        if (position.y - waypoint.floor).abs() > 0.5 {
            return false;
        }
        let start = (position.x, position.z);
        let end = self.point(index);
        swept_cells(start, (end.x, end.z), self.config.half_width, |x, z| {
            let feet = IVec3::new(x, waypoint.feet.y, z);
            in_key_range(feet)
                && is_valid_feet(world, feet, self.agent.height)
                && world.terrain(feet).is_plain()
                && same_floor(floor_height(world, feet), waypoint.floor)
        })
    }

    /// Whether the box of the entity's width and height swept from `position` to `target`
    /// touches only passable cells (a flier's or swimmer's line).
    fn free_line_clear<W: VoxelWorld + ?Sized>(
        &self,
        world: &W,
        position: DVec3,
        target: DVec3,
    ) -> bool {
        // Fliers keep to whole cells: the line from cell centre to cell centre, at most one
        // cell of height apart, with the whole column of cells the body spans checked.
        if (position.y - target.y).abs() > 1e-9 {
            return false;
        }
        let y = target.y.floor() as i32;
        swept_cells(
            (position.x, position.z),
            (target.x, target.z),
            self.config.half_width,
            |x, z| {
                let feet = IVec3::new(x, y, z);
                crate::moves::fly::body_allowed(world, &self.agent, feet)
            },
        )
    }

    fn steer(&self, position: DVec3, index: usize, state: FollowState) -> Steer {
        let last = self.waypoints.len() - 1;
        let next = (self.reached + 1).min(last);
        let next_point = self.point(next);
        let close = horizontal_distance(position, next_point) < 1.5;
        let jump = !self.agent.movement.is_free()
            && state == FollowState::Following
            && close
            && next_point.y - position.y > 9.0 / 16.0;
        let door = (next..=(next + 1).min(last))
            .find(|&i| self.waypoints[i].door)
            .filter(|&i| horizontal_distance(position, self.point(i)) < 2.0)
            .map(|i| self.waypoints[i].feet);
        Steer {
            target: self.point(index),
            jump,
            door,
            state,
            replan: matches!(state, FollowState::Stuck | FollowState::OffRoute),
        }
    }
}

/// The height of the floor under `agent`'s body at `feet`: the highest floor under its box
/// (the floor that holds a wide body up, as the walking rules read it).
fn body_floor<W: VoxelWorld + ?Sized>(world: &W, agent: &Agent, feet: IVec3) -> f64 {
    if agent.width > 1 {
        floor_height(&crate::moves::BoxView::new(world, agent.width), feet)
    } else {
        floor_height(world, feet)
    }
}

/// The height, in blocks, of the floor a walker with its feet in cell `feet` stands on: the top
/// of the cell below's collision box ([`VoxelWorld::floor_top`]), or of the feet cell itself
/// when that is a thin floor the rules walk through (a carpet, thin snow).
fn floor_height<W: VoxelWorld + ?Sized>(world: &W, feet: IVec3) -> f64 {
    let own = world.floor_top(feet);
    if own > 0 && own < FULL_BLOCK && world.is_passable(feet) {
        return f64::from(feet.y) + f64::from(own) / 16.0;
    }
    let below = world.floor_top(feet - IVec3::Y);
    f64::from(feet.y - 1) + f64::from(below.min(FULL_BLOCK)) / 16.0
}

/// Whether two floor heights are the same (both are whole sixteenths of a block).
fn same_floor(a: f64, b: f64) -> bool {
    (a - b).abs() < 1.0 / 64.0
}

fn horizontal_distance(a: DVec3, b: DVec3) -> f64 {
    (a.x - b.x).hypot(a.z - b.z)
}

/// The horizontal distance from `p` to the segment `a`-`b`.
fn segment_distance(p: DVec3, a: DVec3, b: DVec3) -> f64 {
    let (dx, dz) = (b.x - a.x, b.z - a.z);
    let length2 = dx * dx + dz * dz;
    let t = if length2 > 0.0 {
        (((p.x - a.x) * dx + (p.z - a.z) * dz) / length2).clamp(0.0, 1.0)
    } else {
        0.0
    };
    (p.x - (a.x + t * dx)).hypot(p.z - (a.z + t * dz))
}

/// Calls `clear` for every cell `(x, z)` that a square of half-width `half` swept from `from` to
/// `to` overlaps (exactly: the segment against each cell grown by `half`), and returns whether
/// every call returned `true`. Touching a cell's edge does not count as overlapping it.
fn swept_cells(
    from: (f64, f64),
    to: (f64, f64),
    half: f64,
    mut clear: impl FnMut(i32, i32) -> bool,
) -> bool {
    let min_x = (from.0.min(to.0) - half).floor() as i32;
    let max_x = (from.0.max(to.0) + half).ceil() as i32;
    let min_z = (from.1.min(to.1) - half).floor() as i32;
    let max_z = (from.1.max(to.1) + half).ceil() as i32;
    for x in min_x..max_x {
        for z in min_z..max_z {
            let lo = (f64::from(x) - half, f64::from(z) - half);
            let hi = (f64::from(x) + 1.0 + half, f64::from(z) + 1.0 + half);
            if segment_overlaps(from, to, lo, hi) && !clear(x, z) {
                return false;
            }
        }
    }
    true
}

/// Whether the segment `from`-`to` passes through the open box `lo`-`hi` (slab test).
fn segment_overlaps(from: (f64, f64), to: (f64, f64), lo: (f64, f64), hi: (f64, f64)) -> bool {
    let mut enter = 0.0_f64;
    let mut leave = 1.0_f64;
    for (start, end, low, high) in [(from.0, to.0, lo.0, hi.0), (from.1, to.1, lo.1, hi.1)] {
        let delta = end - start;
        if delta.abs() < 1e-12 {
            if start <= low || start >= high {
                return false;
            }
        } else {
            let a = (low - start) / delta;
            let b = (high - start) / delta;
            enter = enter.max(a.min(b));
            leave = leave.min(a.max(b));
        }
    }
    enter < leave
}

/// The feet position an entity at `position` (its feet, in blocks, as a server keeps it)
/// stands on or is above, for `agent`: a start for a search. Handles the cases a plain floor
/// of the coordinates gets wrong: an entity on a slab or other partial floor (its feet are
/// inside the slab's cell), one mid-jump or falling (up to the agent's drop below it), and one
/// whose centre hangs over an edge while its box still stands on the block beside (within
/// half a block's width). A walker that swims ([`crate::WaterMode::Swim`]) afloat in deep
/// water gets its swimming position. A flier or swimmer gets the cell its feet are in, or the
/// nearest one its body fits in one cell up or down.
///
/// Returns `None` when no valid feet position is near: the entity is in the air further than
/// the agent's drop, inside blocks, or outside the world (or the coordinates are not finite).
#[must_use]
pub fn snap_feet<W: VoxelWorld + ?Sized>(
    world: &W,
    agent: &Agent,
    position: DVec3,
) -> Option<IVec3> {
    const HALF_WIDTH: f64 = 0.3;
    if !position.is_finite() || position.abs().max_element() > f64::from(i32::MAX / 2) {
        return None;
    }
    // A wider body's feet cell is the corner of its columns: look for it around the point
    // where a one-wide body's centre would stand in that corner cell.
    let shift = f64::from(agent.width.max(1) - 1) / 2.0;
    let position = DVec3::new(position.x - shift, position.y, position.z - shift);
    let centre = (position.x.floor() as i32, position.z.floor() as i32);
    let mut columns = vec![centre];
    for dx in [-HALF_WIDTH, HALF_WIDTH] {
        for dz in [-HALF_WIDTH, HALF_WIDTH] {
            let column = (
                (position.x + dx).floor() as i32,
                (position.z + dz).floor() as i32,
            );
            if !columns.contains(&column) {
                columns.push(column);
            }
        }
    }
    if agent.movement.is_free() {
        let y = position.y.floor() as i32;
        return [0, 1, -1].into_iter().find_map(|dy| {
            columns.iter().find_map(|&(x, z)| {
                let feet = IVec3::new(x, y + dy, z);
                (in_key_range(feet) && crate::moves::fly::body_allowed(world, agent, feet))
                    .then_some(feet)
            })
        });
    }
    // A feet position's floor lies in its own cell (a carpet) or the one below (a block, a
    // slab): scan down from the cell above the entity's, accepting the first whose floor is not
    // far above the entity (it may have sunk a little into the floor).
    let top = (position.y.floor() as i32).saturating_add(1);
    let lowest = top - agent.max_drop as i32 - 3;
    // The centre's column first; among the others the highest floor (the block that holds
    // the box up).
    let mut best: Option<IVec3> = None;
    for (index, &(x, z)) in columns.iter().enumerate() {
        let found = (lowest..=top).rev().find_map(|y| {
            let feet = IVec3::new(x, y, z);
            (in_key_range(feet)
                && agent.is_valid_position(world, feet)
                && body_floor(world, agent, feet) <= position.y + 0.9)
                .then_some(feet)
        });
        if index == 0 && found.is_some_and(|f| body_floor(world, agent, f) >= position.y - 0.6) {
            return found;
        }
        if let Some(feet) = found
            && best.is_none_or(|b| feet.y > b.y)
        {
            best = Some(feet);
        }
    }
    best
}
