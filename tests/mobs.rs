//! Mob profiles (generated from minecraft-data's entities table, `voxnav::moves::profile`) and
//! the pair picker's ground rule (`voxnav::world::pick`), on side views. Split from
//! `tests/swim.rs`, whose water rules the profiles choose among. The pairs found on the shipped
//! Minecraft save are measured by `examples/minecraft.rs` (its picker's rule is tested with the
//! examples' support code, in `tests/hardening_inputs.rs`).

mod support;

use voxnav::moves::agent::WaterMode;
use voxnav::world::TerrainFlags;
use voxnav::{Agent, Block, ChunkedWorld, IVec3, VoxelWorld};

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
