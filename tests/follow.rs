//! The path follower, proved by walking: a small movement simulation (Minecraft's walking
//! speed, jump velocity, gravity and step height, the entity's box colliding with the world's
//! cells) drives an entity along found routes with `PathFollower` and counts how many arrive
//! in time, without leaving the route's corridor or falling further than the agent's drop.

#![cfg(all(feature = "terrain", feature = "anvil"))]

use voxnav::terrain::{TerrainConfig, generate_terrain, pick_pairs};
use voxnav::{
    Agent, Block, ChunkedWorld, DVec3, FollowState, IVec3, MoveCosts, PathFollower, Router,
    SearchStatus, VoxelWorld, WaterMode, snap_feet,
};

/// A zombie's or player's box: 0.6 wide, 1.8 tall.
const HALF_WIDTH: f64 = 0.3;
const BOX_HEIGHT: f64 = 1.8;

thread_local! {
    /// The simulated entity's half width and height on this thread (each test walks one kind
    /// of entity): a zombie's by default, set by [`walk_as`].
    static BOX: std::cell::Cell<(f64, f64)> = const { std::cell::Cell::new((HALF_WIDTH, BOX_HEIGHT)) };
}

fn half_width() -> f64 {
    BOX.with(|b| b.get().0)
}

fn box_height() -> f64 {
    BOX.with(|b| b.get().1)
}
/// Blocks per tick at walking speed (4.317 m/s at 20 ticks per second).
const WALK_SPEED: f64 = 0.2159;
/// Vertical velocity at take-off of a jump, gravity per tick and vertical drag.
const JUMP_VELOCITY: f64 = 0.42;
const GRAVITY: f64 = 0.08;
const DRAG: f64 = 0.98;
/// The highest rise walked without a jump.
const STEP_HEIGHT: f64 = 0.6;

/// An entity's box and motion.
struct Body {
    position: DVec3,
    vertical: f64,
    on_ground: bool,
    /// The height at which the entity last left the ground.
    takeoff: f64,
}

/// The collision boxes of the cells near `min..max` (cells that are not passable, each as tall
/// as its floor top: a slab half a block, a fence a block and a half).
fn boxes<W: VoxelWorld>(world: &W, min: DVec3, max: DVec3) -> Vec<(DVec3, DVec3)> {
    let mut out = Vec::new();
    for x in (min.x.floor() as i32)..=(max.x.floor() as i32) {
        for y in (min.y.floor() as i32 - 1)..=(max.y.floor() as i32) {
            for z in (min.z.floor() as i32)..=(max.z.floor() as i32) {
                let cell = IVec3::new(x, y, z);
                if world.is_passable(cell) {
                    continue;
                }
                let top = f64::from(world.floor_top(cell)) / 16.0;
                let low = DVec3::new(f64::from(x), f64::from(y), f64::from(z));
                out.push((low, low + DVec3::new(1.0, top, 1.0)));
            }
        }
    }
    out
}

fn body_box(position: DVec3) -> (DVec3, DVec3) {
    (
        position - DVec3::new(half_width(), 0.0, half_width()),
        position + DVec3::new(half_width(), box_height(), half_width()),
    )
}

/// Moves `position` by `delta` along one axis, stopping at the first box in the way; returns
/// the new position and whether it was stopped.
fn move_axis(boxes: &[(DVec3, DVec3)], position: DVec3, axis: usize, delta: f64) -> (DVec3, bool) {
    let mut allowed = delta;
    let (low, high) = body_box(position);
    for &(b_low, b_high) in boxes {
        let others_overlap = (0..3)
            .filter(|&a| a != axis)
            .all(|a| low[a] < b_high[a] - 1e-9 && high[a] > b_low[a] + 1e-9);
        if !others_overlap {
            continue;
        }
        if delta > 0.0 && high[axis] <= b_low[axis] + 1e-9 {
            allowed = allowed.min(b_low[axis] - high[axis]);
        } else if delta < 0.0 && low[axis] >= b_high[axis] - 1e-9 {
            allowed = allowed.max(b_high[axis] - low[axis]);
        }
    }
    let mut moved = position;
    moved[axis] += allowed;
    (moved, (allowed - delta).abs() > 1e-9)
}

/// Moves the body horizontally by `(dx, dz)`, with a step up of at most [`STEP_HEIGHT`] on the
/// ground when a low block is in the way.
fn move_horizontal<W: VoxelWorld>(world: &W, body: &mut Body, dx: f64, dz: f64) {
    let reach = DVec3::new(dx.abs() + 1.0, STEP_HEIGHT + 1.0, dz.abs() + 1.0);
    let near = boxes(
        world,
        body.position - reach,
        body.position + reach + DVec3::Y * box_height(),
    );
    let (flat, blocked) = slide(&near, body.position, dx, dz);
    if blocked && body.on_ground {
        let (lifted, _) = move_axis(&near, body.position, 1, STEP_HEIGHT);
        let (across, _) = slide(&near, lifted, dx, dz);
        let (landed, _) = move_axis(&near, across, 1, -STEP_HEIGHT);
        let gained = (across - body.position).truncate_y_len();
        if gained > (flat - body.position).truncate_y_len() + 1e-6 {
            body.position = landed;
            return;
        }
    }
    body.position = flat;
}

fn slide(boxes: &[(DVec3, DVec3)], position: DVec3, dx: f64, dz: f64) -> (DVec3, bool) {
    let (p, bx) = move_axis(boxes, position, 0, dx);
    let (p, bz) = move_axis(boxes, p, 2, dz);
    (p, bx || bz)
}

trait Horizontal {
    fn truncate_y_len(self) -> f64;
}

impl Horizontal for DVec3 {
    fn truncate_y_len(self) -> f64 {
        self.x.hypot(self.z)
    }
}

/// How far (horizontally) the entity's centre may be from the route's polyline, through cell
/// centres: the follower's default deviation (1 block) and half a block of the box's slack.
const CORRIDOR: f64 = 1.5;

fn distance_to_route(centres: &[DVec3], p: DVec3) -> f64 {
    centres
        .windows(2)
        .map(|pair| {
            let (a, b) = (pair[0], pair[1]);
            let (dx, dz) = (b.x - a.x, b.z - a.z);
            let length2 = dx * dx + dz * dz;
            let t = if length2 > 0.0 {
                (((p.x - a.x) * dx + (p.z - a.z) * dz) / length2).clamp(0.0, 1.0)
            } else {
                0.0
            };
            (p.x - (a.x + t * dx)).hypot(p.z - (a.z + t * dz))
        })
        .fold(f64::INFINITY, f64::min)
}

/// The ticks a fall of `height` blocks takes under gravity and drag (0 for no fall).
fn fall_ticks(height: i32) -> f64 {
    let (mut fallen, mut speed, mut ticks) = (0.0, 0.0, 0.0);
    while fallen < f64::from(height) {
        speed = (speed + GRAVITY) * DRAG;
        fallen += speed;
        ticks += 1.0;
    }
    ticks
}

/// Why a walk failed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
enum Failure {
    TooSlow,
    LeftCorridor,
    FellTooFar,
    FollowerGaveUp,
}

/// Walks `path` with the follower; `Ok(ticks)` when the entity arrived.
fn walk<W: VoxelWorld>(world: &W, agent: &Agent, path: &[IVec3]) -> Result<u32, Failure> {
    let start = path[0];
    // A body's centre: a wider body's feet cell is the corner of its columns.
    let centre = f64::from(agent.width) / 2.0;
    let mut body = Body {
        position: DVec3::new(
            f64::from(start.x) + centre,
            0.0,
            f64::from(start.z) + centre,
        ),
        vertical: 0.0,
        on_ground: true,
        takeoff: 0.0,
    };
    // Stand on the start's floor.
    let near = boxes(
        world,
        body.position - DVec3::splat(2.0),
        body.position + DVec3::splat(2.0) + DVec3::Y * f64::from(start.y),
    );
    let top = DVec3::new(body.position.x, f64::from(start.y) + 0.99, body.position.z);
    body.position = move_axis(&near, top, 1, -2.0).0;
    body.takeoff = body.position.y;
    assert_eq!(
        snap_feet(world, agent, body.position),
        Some(start),
        "the start snaps to itself"
    );

    // The route's walking time: its horizontal length at walking speed, plus the time each
    // drop takes to fall.
    let walking_ticks: f64 = path
        .windows(2)
        .map(|pair| {
            let d = pair[1] - pair[0];
            f64::from(d.x * d.x + d.z * d.z).sqrt() / WALK_SPEED + fall_ticks(pair[0].y - pair[1].y)
        })
        .sum();
    let limit = (1.5 * walking_ticks).ceil() as u32 + 10;
    let centres: Vec<DVec3> = path
        .iter()
        .map(|p| DVec3::new(f64::from(p.x) + centre, 0.0, f64::from(p.z) + centre))
        .collect();
    let mut follower = PathFollower::new(world, agent, path.to_vec());
    for tick in 0..limit {
        let steer = follower.tick(world, body.position);
        if std::env::var_os("FOLLOW_TRACE").is_some() {
            eprintln!(
                "tick {tick} at {:.2?} ground {} reached {} aim {} {:?} target {:.2?} jump {}",
                body.position,
                body.on_ground,
                follower.reached(),
                follower.aim(),
                steer.state,
                steer.target,
                steer.jump
            );
        }
        match steer.state {
            FollowState::Arrived => return Ok(tick),
            FollowState::Stuck | FollowState::OffRoute => return Err(Failure::FollowerGaveUp),
            FollowState::Following => {}
        }
        let to = steer.target - body.position;
        let distance = to.truncate_y_len();
        let (dx, dz) = if distance > 1e-9 {
            let speed = WALK_SPEED.min(distance);
            (to.x / distance * speed, to.z / distance * speed)
        } else {
            (0.0, 0.0)
        };
        if steer.jump && body.on_ground {
            body.vertical = JUMP_VELOCITY;
            body.on_ground = false;
            body.takeoff = body.position.y;
        }
        move_horizontal(world, &mut body, dx, dz);
        let dy = if body.on_ground {
            -GRAVITY
        } else {
            body.vertical
        };
        let reach = DVec3::new(1.0, dy.abs() + 1.0, 1.0);
        let near = boxes(
            world,
            body.position - reach,
            body.position + reach + DVec3::Y * box_height(),
        );
        let before = body.position.y;
        let (moved, stopped) = move_axis(&near, body.position, 1, dy);
        body.position = moved;
        if stopped && dy < 0.0 {
            if body.takeoff - body.position.y > f64::from(agent.max_drop) + 0.01 {
                return Err(Failure::FellTooFar);
            }
            body.on_ground = true;
            body.vertical = 0.0;
            body.takeoff = body.position.y;
        } else {
            if body.on_ground {
                // Walked off an edge: the fall counts from where the feet were.
                body.takeoff = before;
            }
            body.on_ground = false;
            body.vertical = if stopped { 0.0 } else { (dy - GRAVITY) * DRAG };
        }
        if distance_to_route(&centres, body.position) > CORRIDOR {
            return Err(Failure::LeftCorridor);
        }
    }
    Err(Failure::TooSlow)
}

/// Routes `pairs` and walks every found route; returns (found, arrived, failures by cause).
fn walk_pairs<W: VoxelWorld + Sync>(
    world: &W,
    pairs: &[(IVec3, IVec3)],
) -> (usize, usize, Vec<(Failure, usize)>) {
    walk_pairs_as(world, Agent::default(), pairs)
}

/// As [`walk_pairs`], for `agent` (whose body the simulation must have been given).
fn walk_pairs_as<W: VoxelWorld + Sync>(
    world: &W,
    agent: Agent,
    pairs: &[(IVec3, IVec3)],
) -> (usize, usize, Vec<(Failure, usize)>) {
    let router = Router::new(agent, MoveCosts::default()).unwrap();
    let mut found = 0;
    let mut arrived = 0;
    let mut failures = std::collections::BTreeMap::new();
    for &(start, goal) in pairs {
        let route = router.route(world, start, goal).unwrap();
        if route.status != SearchStatus::Found || route.path.len() < 2 {
            continue;
        }
        found += 1;
        match walk(world, &agent, &route.path) {
            Ok(_) => arrived += 1,
            Err(failure) => {
                if std::env::var_os("FOLLOW_TRACE").is_some() {
                    eprintln!("FAILED {failure:?}: {:?}", route.path);
                }
                *failures.entry(failure).or_insert(0) += 1;
            }
        }
    }
    (found, arrived, failures.into_iter().collect())
}

fn assert_rate(what: &str, (found, arrived, failures): (usize, usize, Vec<(Failure, usize)>)) {
    println!(
        "{what}: {arrived} of {found} routes walked to the goal; failures by cause: {failures:?}"
    );
    assert!(
        found >= 20,
        "{what}: too few routes found to judge ({found})"
    );
    assert!(
        arrived * 100 >= found * 99,
        "{what}: {arrived} of {found} routes walked to the goal (at least 99% required); failures: {failures:?}"
    );
}

#[test]
fn routes_on_generated_terrain_can_be_walked() {
    let config = TerrainConfig {
        size_x: 160,
        size_z: 160,
        ..TerrainConfig::default()
    };
    let world = generate_terrain(&config).unwrap();
    let pairs = pick_pairs(&world, &Agent::default(), 7, 300, 8.0..=80.0);
    assert_rate("terrain", walk_pairs(&world, &pairs));
}

#[test]
fn routes_on_the_shipped_minecraft_region_can_be_walked() {
    let loaded = voxnav::anvil::load_world("tests/data/minecraft/r.1.1.mca").unwrap();
    let pairs = pick_pairs(&loaded.world, &Agent::default(), 11, 300, 8.0..=64.0);
    assert_rate("minecraft", walk_pairs(&loaded.world, &pairs));
}

/// A corridor with a corner: the follower cuts across the open room but not the wall's
/// corner, and the simulated entity never touches the wall.
#[test]
fn corner_cut_keeps_the_box_off_the_wall() {
    let mut world = ChunkedWorld::with_size(IVec3::new(12, 5, 12)).unwrap();
    world
        .fill(IVec3::new(0, 0, 0), IVec3::new(11, 0, 11), Block::Solid)
        .unwrap();
    // An L-shaped wall: the route must go round its corner at (5, 5).
    world
        .fill(IVec3::new(5, 1, 0), IVec3::new(5, 2, 5), Block::Solid)
        .unwrap();
    let agent = Agent::default();
    let router = Router::new(agent, MoveCosts::default()).unwrap();
    let route = router
        .route(&world, IVec3::new(2, 1, 2), IVec3::new(8, 1, 2))
        .unwrap();
    assert_eq!(route.status, SearchStatus::Found);
    let mut follower = PathFollower::new(&world, &agent, route.path.clone());
    let steer = follower.tick(&world, DVec3::new(2.5, 1.0, 2.5));
    // The first aim lies beyond the first waypoint (open floor) but not beyond the corner.
    let aim = route.path[follower.aim()];
    assert!(follower.aim() > 1, "the open floor is cut across");
    assert!(
        aim.z >= 6 || aim.x <= 5,
        "the aim {aim} is not across the wall"
    );
    assert_eq!(steer.state, FollowState::Following);
    assert!(walk(&world, &agent, &route.path).is_ok());
}

#[test]
fn stuck_and_off_route_ask_for_a_new_route() {
    let mut world = ChunkedWorld::with_size(IVec3::new(12, 5, 4)).unwrap();
    world
        .fill(IVec3::new(0, 0, 0), IVec3::new(11, 0, 3), Block::Solid)
        .unwrap();
    let agent = Agent::default();
    let path: Vec<IVec3> = (1..=9).map(|x| IVec3::new(x, 1, 1)).collect();
    let mut follower = PathFollower::new(&world, &agent, path.clone());
    // Standing still at the start: stuck after the configured 40 ticks, not before.
    for _ in 0..40 {
        assert_eq!(
            follower.tick(&world, DVec3::new(1.5, 1.0, 1.5)).state,
            FollowState::Following
        );
    }
    let steer = follower.tick(&world, DVec3::new(1.5, 1.0, 1.5));
    assert_eq!(steer.state, FollowState::Stuck);
    assert!(steer.replan);
    // Knocked three blocks sideways: off the route.
    let mut follower = PathFollower::new(&world, &agent, path);
    let steer = follower.tick(&world, DVec3::new(4.5, 1.0, 4.9));
    assert_eq!(steer.state, FollowState::OffRoute);
    assert!(steer.replan);
}

#[test]
fn passed_waypoints_are_skipped_and_steps_ask_for_a_jump() {
    let mut world = ChunkedWorld::with_size(IVec3::new(12, 5, 4)).unwrap();
    world
        .fill(IVec3::new(0, 0, 0), IVec3::new(11, 0, 3), Block::Solid)
        .unwrap();
    world
        .fill(IVec3::new(6, 1, 0), IVec3::new(11, 1, 3), Block::Solid)
        .unwrap();
    let agent = Agent::default();
    let router = Router::new(agent, MoveCosts::default()).unwrap();
    let route = router
        .route(&world, IVec3::new(1, 1, 1), IVec3::new(9, 2, 1))
        .unwrap();
    let mut follower = PathFollower::new(&world, &agent, route.path.clone());
    // Pushed forward to x = 4.6: waypoints 1 to 3 are behind, the entity does not turn back.
    let steer = follower.tick(&world, DVec3::new(4.6, 1.0, 1.5));
    assert!(follower.reached() >= 3, "reached {}", follower.reached());
    assert!(steer.target.x > 4.6);
    // In front of the step: jump.
    let steer = follower.tick(&world, DVec3::new(5.45, 1.0, 1.5));
    assert!(steer.jump, "{steer:?}");
}

#[test]
fn snapping_entity_positions_to_feet() {
    let mut world = ChunkedWorld::with_size(IVec3::new(8, 8, 8)).unwrap();
    world
        .fill(IVec3::new(0, 0, 0), IVec3::new(7, 0, 7), Block::Solid)
        .unwrap();
    world.set(IVec3::new(4, 1, 4), Block::Solid).unwrap();
    let agent = Agent::default();
    // Standing on the floor.
    assert_eq!(
        snap_feet(&world, &agent, DVec3::new(2.5, 1.0, 2.5)),
        Some(IVec3::new(2, 1, 2))
    );
    // Mid-jump, 1.1 blocks up.
    assert_eq!(
        snap_feet(&world, &agent, DVec3::new(2.5, 2.1, 2.5)),
        Some(IVec3::new(2, 1, 2))
    );
    // Centre over the edge of the raised block, box still on it.
    assert_eq!(
        snap_feet(&world, &agent, DVec3::new(5.2, 2.0, 4.5)),
        Some(IVec3::new(4, 2, 4))
    );
    // Sunk a little into the floor: still its feet position.
    assert_eq!(
        snap_feet(&world, &agent, DVec3::new(2.5, 0.2, 2.5)),
        Some(IVec3::new(2, 1, 2))
    );
    // Far above the floor, or not finite: no feet position.
    assert_eq!(snap_feet(&world, &agent, DVec3::new(2.5, 7.5, 2.5)), None);
    assert_eq!(
        snap_feet(&world, &agent, DVec3::new(f64::NAN, 1.0, 2.5)),
        None
    );
}

#[test]
fn a_swimmer_afloat_snaps_to_its_swimming_position() {
    // A pond three deep: water from y 1 to 3 over a floor at y 0.
    let mut world = ChunkedWorld::with_size(IVec3::new(8, 8, 8)).unwrap();
    world
        .fill(IVec3::new(0, 0, 0), IVec3::new(7, 0, 7), Block::Solid)
        .unwrap();
    world
        .fill(IVec3::new(0, 1, 0), IVec3::new(7, 3, 7), Block::Water)
        .unwrap();
    let swimmer = Agent::default().with_water(WaterMode::Swim);
    // Floating with the feet just under the surface of the top water cell.
    assert_eq!(
        snap_feet(&world, &swimmer, DVec3::new(3.5, 3.6, 3.5)),
        Some(IVec3::new(3, 3, 3))
    );
    // A wader does not float: it snaps to the pond's floor below it, as a falling entity does.
    assert_eq!(
        snap_feet(&world, &Agent::default(), DVec3::new(3.5, 3.6, 3.5)),
        Some(IVec3::new(3, 1, 3))
    );
}

/// An iron golem (1.4 x 2.7, so 2 wide and 3 tall in whole blocks) walks its routes on the
/// generated terrain: the follower steers a wide body to the centre of its columns, waypoint
/// by waypoint, and `snap_feet` finds the corner cell from the entity's centre.
#[test]
fn routes_of_a_two_wide_iron_golem_can_be_walked() {
    BOX.with(|b| b.set((0.7, 2.7)));
    let config = TerrainConfig {
        size_x: 128,
        size_z: 128,
        ..TerrainConfig::default()
    };
    let world = generate_terrain(&config).unwrap();
    let golem = Agent::mob("iron_golem").unwrap();
    assert_eq!((golem.width, golem.height), (2, 3));
    let pairs = pick_pairs(&world, &golem, 5, 120, 8.0..=60.0);
    assert_rate("iron golem", walk_pairs_as(&world, golem, &pairs));
}
