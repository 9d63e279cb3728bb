//! The procedural terrain: determinism, walkability, and legal routes on it.
#![cfg(feature = "terrain")]

mod support;

use glam::IVec3;
use support::oracle::legal_step;
use voxnav::engine::Pathfinder;
use voxnav::terrain::{
    Terrain, TerrainConfig, generate_terrain, generate_terrain_with_heights, pick_pairs,
    surface_feet,
};
use voxnav::world::TerrainFlags;
use voxnav::{
    Agent, Block, ChunkedWorld, Error, MoveCosts, SearchOptions, SearchStatus, VoxelWorld,
};

fn small(seed: u64) -> TerrainConfig {
    TerrainConfig::default()
        .with_seed(seed)
        .with_size(64, 64, 64)
}

/// FNV-1a over every cell: passable and standable bits plus whether it is water or lava.
fn world_hash(terrain: &Terrain) -> u64 {
    let size = terrain.size();
    let mut hash = 0xcbf2_9ce4_8422_2325u64;
    for y in 0..size.y {
        for z in 0..size.z {
            for x in 0..size.x {
                let p = IVec3::new(x, y, z);
                let byte = u8::from(terrain.is_passable(p))
                    | (u8::from(terrain.is_standable(p)) << 1)
                    | match terrain.world().get(p) {
                        Some(Block::Water) => 4,
                        Some(Block::Lava) => 8,
                        _ => 0,
                    };
                hash = (hash ^ u64::from(byte)).wrapping_mul(0x0000_0100_0000_01b3);
            }
        }
    }
    hash
}

/// The number of water and of lava cells of a world of `size`.
fn liquid_cells(world: &ChunkedWorld, size: IVec3) -> (u64, u64) {
    let mut counts = (0, 0);
    for y in 0..size.y {
        for z in 0..size.z {
            for x in 0..size.x {
                match world.get(IVec3::new(x, y, z)) {
                    Some(Block::Water) => counts.0 += 1,
                    Some(Block::Lava) => counts.1 += 1,
                    _ => {}
                }
            }
        }
    }
    counts
}

#[test]
fn same_config_gives_the_same_world_pinned_by_hash() {
    let a = generate_terrain_with_heights(&small(2024)).unwrap();
    let b = generate_terrain_with_heights(&small(2024)).unwrap();
    assert_eq!(world_hash(&a), world_hash(&b));
    // Pinned: a change here means worlds generated from a seed changed for every user.
    assert_eq!(world_hash(&a), PINNED_HASH, "hash is {:#x}", world_hash(&a));
    let other = generate_terrain_with_heights(&small(2025)).unwrap();
    assert_ne!(world_hash(&a), world_hash(&other));
}

const PINNED_HASH: u64 = 0xb4f8_e3d6_94b8_2e02;

#[test]
fn generate_terrain_returns_the_same_blocks_as_the_terrain() {
    let config = small(5);
    let world = generate_terrain(&config).unwrap();
    let terrain = generate_terrain_with_heights(&config).unwrap();
    assert_eq!(world.world_bounds(), terrain.world().world_bounds());
    for y in 0..64 {
        for x in 0..64 {
            let p = IVec3::new(x, y, 17);
            assert_eq!(world.get(p), terrain.world().get(p));
        }
    }
}

#[test]
fn the_default_world_has_every_feature_in_a_corner() {
    // A 128 x 128 corner of the default world: water, lava, caves, obstacles, cliffs.
    let config = TerrainConfig::default().with_size(128, 128, 128);
    let terrain = generate_terrain_with_heights(&config).unwrap();
    let (water, lava) = liquid_cells(terrain.world(), terrain.size());
    assert!(water > 0 && lava > 0, "water {water}, lava {lava}");
    let mut cliffs = 0;
    let mut caves = 0;
    for z in 0..127 {
        for x in 0..127 {
            let here = terrain.top(x, z).unwrap();
            let east = terrain.top(x + 1, z).unwrap();
            if (here - east).abs() >= 4 {
                cliffs += 1;
            }
            // Air under the top of a column that holds no tree: a cave or an overhang.
            if (1..here).any(|y| terrain.is_passable(IVec3::new(x, y, z))) {
                caves += 1;
            }
        }
    }
    assert!(cliffs > 20, "only {cliffs} cliff edges");
    assert!(caves > 100, "only {caves} columns with caves");
}

#[test]
fn liquids_are_real_blocks_with_the_meaning_every_world_gives_them() {
    let config = TerrainConfig::default().with_size(128, 128, 128);
    let terrain = generate_terrain_with_heights(&config).unwrap();
    let world = generate_terrain(&config).unwrap();
    let (mut water, mut lava, mut near_lava, mut wading) = (0, 0, 0, 0);
    for z in 0..128 {
        for x in 0..128 {
            for y in 1..127 {
                let p = IVec3::new(x, y, z);
                // The terrain answers as its blocks do, and as generate_terrain's world does.
                assert_eq!(terrain.world().get(p), world.get(p), "{p}");
                assert_eq!(terrain.is_passable(p), world.is_passable(p), "{p}");
                assert_eq!(terrain.is_standable(p), world.is_standable(p), "{p}");
                assert_eq!(terrain.terrain(p), world.terrain(p), "{p}");
                match world.get(p) {
                    Some(Block::Water) => {
                        // Water: passable, not standable, and feet in it pay the water cost.
                        assert!(world.is_passable(p) && !world.is_standable(p), "{p}");
                        assert!(world.terrain(p).contains(TerrainFlags::IN_WATER), "{p}");
                        water += 1;
                        if voxnav::world::is_valid_feet(&world, p, 2) {
                            wading += 1;
                        }
                    }
                    Some(Block::Lava) => {
                        // Lava: never entered or stood on; every cell around it is dangerous.
                        assert!(!world.is_passable(p) && !world.is_standable(p), "{p}");
                        assert!(
                            world
                                .terrain(p + IVec3::Y)
                                .contains(TerrainFlags::NEAR_DANGER)
                        );
                        lava += 1;
                    }
                    _ => {}
                }
                if world.terrain(p).contains(TerrainFlags::NEAR_DANGER) {
                    near_lava += 1;
                }
            }
        }
    }
    assert!(water > 0 && lava > 0 && near_lava > lava && wading > 0);
    // Every liquid column seen from above is a run of one liquid.
    let mut columns = 0;
    for z in 0..128 {
        for x in 0..128 {
            if let Some((block, low, high)) = terrain.column_liquid(x, z) {
                assert_eq!(terrain.top(x, z), Some(high));
                for y in low..=high {
                    assert_eq!(world.get(IVec3::new(x, y, z)), Some(block));
                }
                assert_ne!(world.get(IVec3::new(x, low - 1, z)), Some(block));
                columns += 1;
            }
        }
    }
    assert!(columns > 0);
    let dry = generate_terrain(&config.with_hazards(false)).unwrap();
    assert_eq!(liquid_cells(&dry, IVec3::splat(128)), (0, 0));
}

#[test]
fn routes_wade_through_water_and_never_enter_lava() {
    let config = TerrainConfig::default()
        .with_seed(11)
        .with_size(128, 128, 128);
    let world = generate_terrain(&config).unwrap();
    let agent = Agent::default();
    let costs = MoveCosts::default();
    let mut pathfinder = Pathfinder::new(agent, costs).unwrap();
    let options = SearchOptions::default().with_max_nodes(200_000);
    let mut wet_steps = 0;
    for (start, goal) in pick_pairs(&world, &agent, 21, 60, 20.0..=80.0) {
        let route = pathfinder.find_path(&world, start, goal, &options).unwrap();
        for &feet in &route.path {
            for dy in 0..2 {
                assert_ne!(world.get(feet + IVec3::Y * dy), Some(Block::Lava));
            }
            assert_ne!(world.get(feet - IVec3::Y), Some(Block::Lava));
            if world.get(feet) == Some(Block::Water) {
                wet_steps += 1;
            }
        }
    }
    assert!(wet_steps > 0, "no route waded through a lake");
}

#[test]
fn bad_configs_are_errors_not_panics() {
    for config in [
        small(1).with_size(0, 64, 64),
        small(1).with_height_range(0, 10),
        small(1).with_height_range(30, 20),
        small(1).with_height_range(10, 62),
        small(1).with_hill_frequency(0.0),
        small(1).with_cave_frequency(f32::NAN),
        small(1).with_obstacle_density(1.5),
        small(1).with_size(1 << 14, 64, 1 << 14),
    ] {
        assert!(
            matches!(
                generate_terrain_with_heights(&config),
                Err(Error::InvalidSetting(_))
            ),
            "{config:?}"
        );
    }
}

#[test]
fn surface_feet_is_the_highest_valid_feet_of_the_column() {
    let terrain = generate_terrain_with_heights(&small(3)).unwrap();
    let agent = Agent::default();
    for (x, z) in [(0, 0), (10, 50), (63, 63), (31, 7)] {
        if let Some(feet) = surface_feet(&terrain, &agent, x, z) {
            assert!(voxnav::world::is_valid_feet(&terrain, feet, 2));
            assert!((feet.y + 1..64).all(|y| !voxnav::world::is_valid_feet(
                &terrain,
                IVec3::new(x, y, z),
                2
            )));
        }
    }
    assert_eq!(surface_feet(&terrain, &agent, -1, 0), None);
    assert_eq!(surface_feet(&terrain, &agent, 0, 64), None);
}

#[test]
fn pairs_are_deterministic_valid_and_at_the_asked_distance() {
    let terrain = generate_terrain_with_heights(&small(8)).unwrap();
    let agent = Agent::default();
    let pairs = pick_pairs(&terrain, &agent, 77, 30, 12.0..=20.0);
    assert_eq!(pairs.len(), 30);
    assert_eq!(pairs, pick_pairs(&terrain, &agent, 77, 30, 12.0..=20.0));
    assert_ne!(pairs, pick_pairs(&terrain, &agent, 78, 30, 12.0..=20.0));
    for &(start, goal) in &pairs {
        let (dx, dz) = ((goal.x - start.x) as f32, (goal.z - start.z) as f32);
        assert!((12.0..=20.0).contains(&(dx * dx + dz * dz).sqrt()));
        for feet in [start, goal] {
            assert_eq!(surface_feet(&terrain, &agent, feet.x, feet.z), Some(feet));
        }
    }
    // Distances no 64 x 64 world holds: fewer pairs, quickly, no endless loop.
    assert!(pick_pairs(&terrain, &agent, 1, 3, 100.0..=120.0).is_empty());
    assert!(pick_pairs(&terrain, &agent, 1, 3, 20.0..=10.0).is_empty());
}

#[test]
fn most_nearby_surface_pairs_are_reachable() {
    let terrain =
        generate_terrain_with_heights(&TerrainConfig::default().with_size(160, 128, 160)).unwrap();
    let agent = Agent::default();
    let mut pathfinder = Pathfinder::new(agent, MoveCosts::default()).unwrap();
    let pairs = pick_pairs(&terrain, &agent, 4, 100, 4.0..=32.0);
    assert_eq!(pairs.len(), 100);
    let options = SearchOptions::default().with_max_nodes(100_000);
    let found = pairs
        .iter()
        .filter(|&&(start, goal)| {
            pathfinder
                .find_path(&terrain, start, goal, &options)
                .unwrap()
                .is_found()
        })
        .count();
    assert!(
        found >= 60,
        "only {found} of 100 pairs within 32 blocks are reachable"
    );
}

#[test]
fn every_route_on_terrain_is_legal_step_by_step_and_costs_what_it_says() {
    let terrain = generate_terrain_with_heights(
        &TerrainConfig::default()
            .with_seed(11)
            .with_size(128, 128, 128),
    )
    .unwrap();
    let agent = Agent::default();
    let costs = MoveCosts::default();
    let mut pathfinder = Pathfinder::new(agent, costs).unwrap();
    let options = SearchOptions::default().with_max_nodes(50_000);
    let mut checked_steps = 0;
    let mut found = 0;
    for (start, goal) in pick_pairs(&terrain, &agent, 12, 40, 8.0..=60.0) {
        let route = pathfinder
            .find_path(&terrain, start, goal, &options)
            .unwrap();
        if route.status == SearchStatus::Unreachable {
            continue;
        }
        found += usize::from(route.is_found());
        assert_eq!(route.path.first(), Some(&start));
        if route.is_found() {
            assert_eq!(route.path.last(), Some(&goal));
        }
        let mut total = 0;
        for step in route.path.windows(2) {
            let cost = legal_step(&terrain, &agent, &costs, step[0], step[1]).map(u64::from);
            assert!(cost.is_some(), "illegal step {} -> {}", step[0], step[1]);
            total += cost.unwrap_or(0);
            checked_steps += 1;
        }
        assert_eq!(route.cost, Some(total), "route {start} -> {goal}");
    }
    assert!(found >= 20, "only {found} routes found");
    assert!(checked_steps > 500);
}

#[test]
fn the_legality_checker_rejects_what_the_rules_forbid() {
    // Guard against a checker that accepts everything: teleports and vertical moves fail.
    let terrain = generate_terrain_with_heights(&small(3)).unwrap();
    let agent = Agent::default();
    let costs = MoveCosts::default();
    let (start, goal) = pick_pairs(&terrain, &agent, 5, 1, 6.0..=6.0)[0];
    assert_eq!(legal_step(&terrain, &agent, &costs, start, goal), None);
    assert_eq!(
        legal_step(&terrain, &agent, &costs, start, start + IVec3::Y),
        None
    );
    assert_eq!(legal_step(&terrain, &agent, &costs, start, start), None);
}

#[test]
fn column_reads_agree_with_cell_reads_liquids_included() {
    let terrain = generate_terrain_with_heights(&small(5)).unwrap();
    let size = terrain.size();
    let mut checked_liquid_columns = 0;
    for x in -1..=size.x {
        for z in (-1..=size.z).step_by(3) {
            let y0 = (x * 7 + z * 3).rem_euclid(size.y) - 4;
            let bits = terrain.column(x, z, y0, 12);
            for i in 0..12 {
                let p = IVec3::new(x, y0 + i, z);
                assert_eq!((bits.passable >> i) & 1 == 1, terrain.is_passable(p), "{p}");
                assert_eq!(
                    (bits.standable >> i) & 1 == 1,
                    terrain.is_standable(p),
                    "{p}"
                );
            }
            let around = terrain.columns_around(x, z, y0, 12);
            for (k, (dx, dz)) in voxnav::world::AROUND.iter().enumerate() {
                assert_eq!(around[k], terrain.column(x + dx, z + dz, y0, 12));
            }
            if terrain.column_liquid(x, z).is_some() {
                checked_liquid_columns += 1;
            }
        }
    }
    assert!(
        checked_liquid_columns > 0,
        "the test world should have pools"
    );
}
