//! Mob profiles (generated from minecraft-data's entities table, `voxnav::moves::profile`) and
//! the pair picker's ground rule (`voxnav::world::pick`), on side views and on the shipped
//! Minecraft save. Split from `tests/swim.rs`, whose water rules the profiles choose among.

mod support;

use voxnav::engine::Pathfinder;
use voxnav::moves::agent::WaterMode;
use voxnav::world::TerrainFlags;
use voxnav::{
    Agent, Block, ChunkedWorld, IVec3, MoveCosts, SearchOptions, SearchStatus, VoxelWorld,
};

/// Whether the cell `p` is water of any kind.
fn water<W: VoxelWorld + ?Sized>(world: &W, p: IVec3) -> bool {
    world.terrain(p).contains(TerrainFlags::IN_WATER)
}

// ---------------------------------------------------------------------------------------
// Mob profiles (generated from minecraft-data's entities table).

#[test]
fn mob_profiles_give_rounded_heights_movements_and_abilities() {
    use voxnav::Movement;
    use voxnav::moves::profile::{MobMovement, mob_names, mob_profile};

    let zombie = Agent::mob("zombie").unwrap();
    assert_eq!(
        (
            zombie.height,
            zombie.movement,
            zombie.water,
            zombie.opens_doors
        ),
        (2, Movement::Walk, WaterMode::Swim, false)
    );
    assert_eq!(Agent::mob("minecraft:zombie").unwrap(), zombie);
    let villager = Agent::mob("villager").unwrap();
    assert!(villager.opens_doors && villager.water == WaterMode::Swim);
    let enderman = mob_profile("enderman").unwrap();
    assert_eq!((enderman.hitbox_height, enderman.height), (2.9, 3));
    assert_eq!(Agent::mob("enderman").unwrap().water, WaterMode::Avoid);
    assert_eq!(Agent::mob("chicken").unwrap().height, 1);
    let golem = mob_profile("iron_golem").unwrap();
    assert_eq!(
        (golem.width, golem.height, golem.movement),
        (2, 3, MobMovement::Walk)
    );
    assert_eq!(Agent::mob("iron_golem").unwrap().water, WaterMode::Wade);
    assert_eq!(Agent::mob("bee").unwrap().movement, Movement::Fly);
    assert_eq!(Agent::mob("cod").unwrap().movement, Movement::Swim);
    let names: Vec<_> = mob_names().collect();
    assert_eq!(names.len(), 89);
    assert!(names.windows(2).all(|pair| pair[0] < pair[1]));
    for name in &names {
        match Agent::mob(name) {
            Ok(agent) => assert!(agent.validate().is_ok(), "{name}"),
            // Only the mobs wider than any agent get none.
            Err(error) => {
                assert!(mob_profile(name).unwrap().width > 3, "{name}: {error}");
                assert!(matches!(error, voxnav::Error::InvalidSetting(_)), "{name}");
            }
        }
    }
    let error = Agent::mob("creeper_king").unwrap_err();
    assert!(matches!(&error, voxnav::Error::UnknownMob { name } if name == "creeper_king"));
    assert!(error.to_string().contains("mob_names()"), "{error}");
}

// ---------------------------------------------------------------------------------------
// Ground worth standing on: the pair picker of `voxnav::world::pick`.

#[test]
fn ground_pairs_start_and_end_neither_under_water_nor_on_unloaded_chunks() {
    use voxnav::world::pick::{ground_feet, is_natural_ground, pick_ground_pairs, pick_pairs};

    // 48 x 48 columns: a sea three deep over x < 16, land over 16 <= x < 32, and an
    // "unloaded" band of barriers from the bottom to the top of the world over x >= 32.
    let mut world = ChunkedWorld::with_size(IVec3::new(48, 10, 48)).unwrap();
    world
        .fill(IVec3::ZERO, IVec3::new(31, 0, 47), Block::Solid)
        .unwrap();
    world
        .fill(IVec3::new(0, 1, 0), IVec3::new(15, 3, 47), Block::Water)
        .unwrap();
    world
        .fill(IVec3::new(32, 0, 0), IVec3::new(47, 9, 47), Block::Barrier)
        .unwrap();
    let agent = Agent::mob("zombie").unwrap();
    assert_eq!(ground_feet(&world, &agent, 5, 5), None);
    assert_eq!(ground_feet(&world, &agent, 40, 5), None);
    assert_eq!(
        ground_feet(&world, &agent, 20, 5),
        Some(IVec3::new(20, 1, 5))
    );

    let any = pick_pairs(&world, &agent, 11, 200, 1.0..=40.0);
    assert!(
        any.iter()
            .any(|&(s, g)| !is_natural_ground(&world, s) || !is_natural_ground(&world, g)),
        "the plain picker does start on the sea floor"
    );
    let ground = pick_ground_pairs(&world, &agent, 11, 200, 1.0..=40.0);
    assert_eq!(ground.len(), 200);
    for (start, goal) in ground {
        for feet in [start, goal] {
            assert!((16..32).contains(&feet.x), "{feet}");
            assert!(!water(&world, feet), "{feet}");
            assert!(world.is_standable(feet - IVec3::Y));
        }
    }
}

/// Pairs as `examples/minecraft.rs` picks them (its generator and draws: a start in a random
/// loaded column, a goal at most 64 blocks away in x and z), with the pair picker's ground
/// rule ([`voxnav::world::pick::ground_feet`]); and how many of them `agent` finds with
/// 2 000 000 nodes per search: (found, partial, pairs, expansions).
#[cfg(feature = "anvil")]
fn measure_save(loaded: &voxnav::anvil::LoadedWorld, agent: Agent, wanted: usize) -> [u64; 4] {
    use voxnav::world::pick::ground_feet;

    let chunks = &loaded.loaded_chunks;
    if chunks.is_empty() {
        return [0; 4];
    }
    let mut state = 1u64;
    let mut below = |n: u64| {
        state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        (z ^ (z >> 31)) % n
    };
    let mut pairs = Vec::new();
    let mut tries = 0;
    while pairs.len() < wanted && tries < wanted * 200 {
        tries += 1;
        let (cx, cz) = chunks[below(chunks.len() as u64) as usize];
        let x = cx * 16 + below(16) as i32;
        let z = cz * 16 + below(16) as i32;
        let Some(start) = ground_feet(&loaded.world, &agent, x, z) else {
            continue;
        };
        let gx = x + below(129) as i32 - 64;
        let gz = z + below(129) as i32 - 64;
        let Some(goal) = ground_feet(&loaded.world, &agent, gx, gz) else {
            continue;
        };
        if goal != start {
            pairs.push((start, goal));
        }
    }
    let mut pathfinder = Pathfinder::new(agent, MoveCosts::default()).unwrap();
    let options = SearchOptions::default().with_max_nodes(2_000_000);
    let mut out = [0, 0, pairs.len() as u64, 0];
    for &(start, goal) in &pairs {
        assert!(!water(&loaded.world, start) && !water(&loaded.world, goal));
        let result = pathfinder
            .find_path(&loaded.world, start, goal, &options)
            .unwrap();
        out[3] += result.stats.expanded;
        match result.status {
            SearchStatus::Found => out[0] += 1,
            SearchStatus::Partial => out[1] += 1,
            SearchStatus::Unreachable => {}
        }
    }
    out
}

/// The measure on a real save, run by hand (it loads region files for a few
/// seconds): `cargo test --release --test swim -- --ignored --nocapture`, with the save in
/// `VOXNAV_SAVE` (default `../shared/data/minecraft/vanilla-1.21.11`). Prints the pairs
/// found, of 100 on the whole save and of 40 on each region file loaded alone.
#[cfg(feature = "anvil")]
#[test]
#[ignore = "measures a real save; run by hand"]
fn mob_pairs_on_the_shipped_save() {
    use voxnav::anvil::load_world;

    let save = std::env::var("VOXNAV_SAVE")
        .unwrap_or_else(|_| "../shared/data/minecraft/vanilla-1.21.11".to_owned());
    let whole = load_world(&save).unwrap();
    let mobs = ["zombie", "iron_golem", "chicken"];
    for mob in mobs {
        let [found, partial, pairs, expanded] = measure_save(&whole, Agent::mob(mob).unwrap(), 100);
        println!(
            "whole save, {mob}: {found} of {pairs} found, {partial} partial; {expanded} expansions"
        );
    }
    let [found, _, pairs, _] = measure_save(&whole, Agent::default(), 100);
    println!("whole save, Agent::default(): {found} of {pairs} found");
    let mut regions: Vec<_> = std::fs::read_dir(format!("{save}/region"))
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .collect();
    regions.sort();
    for region in regions {
        let loaded = load_world(&region).unwrap();
        let name = region.file_name().unwrap().to_string_lossy().into_owned();
        let counts: Vec<String> = mobs
            .iter()
            .map(|mob| {
                let [found, _, pairs, _] = measure_save(&loaded, Agent::mob(mob).unwrap(), 40);
                format!("{mob} {found}/{pairs}")
            })
            .collect();
        println!("{name}: {}", counts.join(", "));
    }
}
