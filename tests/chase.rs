//! The chase field against independent searches: on random small worlds, every node's cost to
//! the target equals the cost of the route the on-the-fly A* finds to it, and following
//! `next_step` from any node reaches the target along legal moves at exactly that cost.

mod support;

use support::rng::Rng;
use voxnav::chase::ChaseField;
use voxnav::{Agent, Block, ChunkedWorld, IVec3, MoveCosts, Router, SearchStatus, check_path};

fn random_world(rng: &mut Rng, offset: IVec3) -> ChunkedWorld {
    let size = IVec3::new(12, 6, 12);
    let mut world =
        ChunkedWorld::with_bounds(voxnav::world::Bounds::new(offset, offset + size)).unwrap();
    world
        .fill(
            offset,
            offset + IVec3::new(size.x - 1, 0, size.z - 1),
            Block::Solid,
        )
        .unwrap();
    for _ in 0..40 {
        let p = offset
            + IVec3::new(
                rng.below(size.x as u64) as i32,
                1 + rng.below(3) as i32,
                rng.below(size.z as u64) as i32,
            );
        let block = match rng.below(5) {
            0 => Block::Water,
            1 => Block::Air,
            _ => Block::Solid,
        };
        world.set(p, block).unwrap();
    }
    world
}

#[test]
fn field_costs_equal_searched_costs_and_steps_follow_them() {
    let mut rng = Rng::new(0xc4a5e);
    let costs = MoveCosts::default();
    let agent = Agent::default();
    let mut compared = 0;
    for round in 0..12 {
        // Offsets that put the world across chunk borders in all three axes.
        let offset = IVec3::new(-6 + round * 3, -3 - round, 9 - round * 5);
        let world = random_world(&mut rng, offset);
        let mut router = Router::new(agent, costs).unwrap();
        assert!(router.prepare(&world).unwrap());
        let graph = router.graph().unwrap();
        let nodes: Vec<IVec3> = graph.nodes().map(|id| graph.feet(id)).collect();
        if nodes.len() < 2 {
            continue;
        }
        let target = nodes[rng.below(nodes.len() as u64) as usize];
        let mut field = ChaseField::new(costs, u64::MAX);
        assert!(field.retarget(graph, target).unwrap());
        assert!(
            !field.retarget(graph, target).unwrap(),
            "same target: no rebuild"
        );
        for &from in &nodes {
            let searched = router.route(&world, from, target).unwrap();
            let cost = field.cost_to_target(graph, from);
            match searched.status {
                SearchStatus::Found => assert_eq!(cost, searched.cost, "{from} -> {target}"),
                _ => assert_eq!(cost, None, "{from} -> {target} is unreachable"),
            }
            let Some(cost) = cost else { continue };
            let mut path = vec![from];
            while let Some(next) = field.next_step(graph, *path.last().unwrap()) {
                path.push(next);
                assert!(path.len() <= nodes.len(), "the steps loop");
            }
            assert_eq!(*path.last().unwrap(), target);
            let check = check_path(&world, &agent, &costs, &path);
            assert!(check.is_legal(), "{path:?}");
            assert_eq!(check.cost, Some(cost));
            compared += 1;
        }
    }
    assert!(compared > 200, "only {compared} nodes compared");
}

#[test]
fn the_radius_bounds_the_field_and_unknown_targets_are_errors() {
    let mut world = ChunkedWorld::with_size(IVec3::new(32, 4, 4)).unwrap();
    world
        .fill(IVec3::ZERO, IVec3::new(31, 0, 3), Block::Solid)
        .unwrap();
    let mut router = Router::new(Agent::default(), MoveCosts::default()).unwrap();
    router.prepare(&world).unwrap();
    let graph = router.graph().unwrap();
    let mut field = ChaseField::new(MoveCosts::default(), 100);
    field.retarget(graph, IVec3::new(0, 1, 0)).unwrap();
    assert_eq!(field.cost_to_target(graph, IVec3::new(10, 1, 0)), Some(100));
    assert_eq!(field.cost_to_target(graph, IVec3::new(11, 1, 0)), None);
    assert_eq!(field.next_step(graph, IVec3::new(11, 1, 0)), None);
    let error = field.retarget(graph, IVec3::new(0, 3, 0)).unwrap_err();
    assert!(error.to_string().contains("goal 0,3,0"), "{error}");
}
