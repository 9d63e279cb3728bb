//! The block-state table: what each Minecraft block state means for walking, and the
//! [`Block`] kind voxnav stores for it.
//!
//! The rows come from `minecraft-data` (see [`TABLE_SOURCE`]); the mapping from a row to a
//! [`Block`] is voxnav's policy and is written here, in [`block_for_state`].

use crate::world::chunked::Block;

use super::block_table::{
    BLOCKS, DATA_VERSION, GAME_VERSION, PACKAGE_VERSION, PROPERTIES, ROWS, STATE_COUNT, STATE_ROWS,
    VALUES,
};

/// One block of the generated table: (name without namespace, first state id, default state
/// id, its properties as indices into the property list, the fastest-varying last).
pub(super) type BlockDef = (&'static str, u32, u32, &'static [u16]);

/// Where the block table came from: the `minecraft-data` package version, the game version
/// and that version's data version.
pub const TABLE_SOURCE: TableSource = TableSource {
    package_version: PACKAGE_VERSION,
    game_version: GAME_VERSION,
    data_version: DATA_VERSION,
};

/// The provenance of the generated block table (see [`TABLE_SOURCE`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TableSource {
    /// The npm package `minecraft-data` version.
    pub package_version: &'static str,
    /// The Java Edition version whose block data the table holds.
    pub game_version: &'static str,
    /// That version's data version.
    pub data_version: i32,
}

/// Names that changed between Minecraft 1.18 and the table's version: (old, new). Chunks
/// written by older versions still carry the old names.
pub const BLOCK_ALIASES: &[(&str, &str)] = &[
    // 1.20.3 renamed the short grass plant.
    ("grass", "short_grass"),
    // 1.21.9 added copper chains and renamed the iron one.
    ("chain", "iron_chain"),
];

/// What one block state means for walking: one row of the generated table.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[expect(
    clippy::struct_excessive_bools,
    reason = "independent yes/no columns of the block table, read by name"
)]
pub struct StateInfo {
    /// The top of the state's collision shape in sixteenths of a block, rounded up: 0 when
    /// it has no collision, 16 for a full block's top, 24 for fences and walls.
    pub collision_top: u8,
    /// Whether the collision shape is exactly the unit cube.
    pub full_cube: bool,
    /// Water, a bubble column, an always-wet plant (kelp, seagrass) or a waterlogged state.
    pub water: bool,
    /// Lava.
    pub lava: bool,
    /// Climbable (ladders, vines, scaffolding, cave vines).
    pub climbable: bool,
    /// Opened by hand: wooden and copper doors and trapdoors, fence gates.
    pub openable: bool,
    /// Slows whoever walks in or on it: soul sand, honey block, cobweb, powder snow.
    pub slowing: bool,
    /// Hurts whoever touches it: fire, lava, magma block, cactus, sweet berry bush, a lit
    /// campfire, wither rose, pointed dripstone.
    pub damaging: bool,
}

impl StateInfo {
    const fn from_bits(bits: u16) -> Self {
        Self {
            collision_top: (bits & 31) as u8,
            full_cube: bits & (1 << 5) != 0,
            water: bits & (1 << 6) != 0,
            lava: bits & (1 << 7) != 0,
            climbable: bits & (1 << 8) != 0,
            openable: bits & (1 << 9) != 0,
            slowing: bits & (1 << 10) != 0,
            damaging: bits & (1 << 11) != 0,
        }
    }

    /// Whether the state is a liquid (water or lava, waterlogged states included).
    #[must_use]
    pub const fn is_liquid(&self) -> bool {
        self.water || self.lava
    }
}

/// A block state resolved against the table.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct StateLookup {
    /// The state id in the table's numbering.
    pub id: u32,
    /// How many of the given properties were not recognised (an unknown name or value) and
    /// how many of the block's properties were missing: each took the block's default value.
    pub defaulted: u32,
}

/// The number of block states in the table.
#[must_use]
pub fn state_count() -> u32 {
    STATE_COUNT
}

/// The table row of block state `id`, or `None` past the table's last state.
#[must_use]
pub fn state_info(id: u32) -> Option<StateInfo> {
    let code = *STATE_ROWS.get(id as usize)?;
    ROWS.get(usize::from(code.wrapping_sub(b'#')))
        .map(|&bits| StateInfo::from_bits(bits))
}

/// The block name without its `minecraft:` namespace and with old names mapped to the
/// table's (see [`BLOCK_ALIASES`]); `None` for another namespace.
#[must_use]
pub fn canonical_name(name: &str) -> Option<&str> {
    let bare = match name.split_once(':') {
        Some(("minecraft", bare)) => bare,
        Some(_) => return None,
        None => name,
    };
    Some(
        BLOCK_ALIASES
            .iter()
            .find(|(old, _)| *old == bare)
            .map_or(bare, |(_, new)| new),
    )
}

fn find_block(name: &str) -> Option<&'static BlockDef> {
    let bare = canonical_name(name)?;
    BLOCKS
        .binary_search_by(|def| def.0.cmp(bare))
        .ok()
        .map(|i| &BLOCKS[i])
}

/// Resolves a block name (with or without the `minecraft:` namespace, old names accepted)
/// and its properties to a state id. Properties the block does not have, or values it does
/// not know, are ignored and counted in [`StateLookup::defaulted`]; properties left unset
/// take the block's default value (and are counted too). `None` when the name is unknown.
///
/// ```
/// use voxnav::anvil::{lookup_state, state_info};
///
/// let slab = lookup_state("minecraft:oak_slab", [("type", "bottom"), ("waterlogged", "false")])
///     .unwrap();
/// assert_eq!(slab.defaulted, 0);
/// assert_eq!(state_info(slab.id).unwrap().collision_top, 8);
/// ```
pub fn lookup_state<'a>(
    name: &str,
    properties: impl IntoIterator<Item = (&'a str, &'a str)> + Clone,
) -> Option<StateLookup> {
    let &(_, first, default, props) = find_block(name)?;
    // Mixed radix over the properties, the last fastest: walk them from the last, reading
    // the default's digit as we go.
    let mut default_rest = default - first;
    let mut offset = 0u32;
    let mut radix = 1u32;
    let mut matched = 0u32;
    let mut defaulted = 0u32;
    for &prop in props.iter().rev() {
        let (prop_name, values) = PROPERTIES[usize::from(prop)];
        let values = VALUES[usize::from(values)];
        let len = values.len() as u32;
        let default_digit = default_rest % len;
        default_rest /= len;
        let given = properties
            .clone()
            .into_iter()
            .find(|(key, _)| *key == prop_name);
        let digit = match given {
            Some((_, value)) => {
                matched += 1;
                if let Some(i) = values.iter().position(|v| *v == value) {
                    i as u32
                } else {
                    defaulted += 1;
                    default_digit
                }
            }
            None => {
                defaulted += 1;
                default_digit
            }
        };
        offset += digit * radix;
        radix *= len;
    }
    let given_count = properties.into_iter().count() as u32;
    defaulted += given_count.saturating_sub(matched);
    Some(StateLookup {
        id: first + offset,
        defaulted,
    })
}

/// The name (without namespace) of the block that state `id` belongs to.
#[must_use]
pub fn state_name(id: u32) -> Option<&'static str> {
    block_of_state(id).map(|def| def.0)
}

fn block_of_state(id: u32) -> Option<&'static BlockDef> {
    if id >= STATE_COUNT {
        return None;
    }
    let by_first = &index().by_first;
    let i = by_first.partition_point(|&b| BLOCKS[usize::from(b)].1 <= id);
    Some(&BLOCKS[usize::from(by_first[i.checked_sub(1)?])])
}

/// Look-ups built once from the generated table.
struct Index {
    /// Indices into `BLOCKS`, sorted by first state id.
    by_first: Vec<u16>,
    /// The [`Block`] of every state id.
    blocks: Vec<Block>,
}

fn index() -> &'static Index {
    static INDEX: std::sync::OnceLock<Index> = std::sync::OnceLock::new();
    INDEX.get_or_init(|| {
        let mut by_first: Vec<u16> = (0..BLOCKS.len() as u16).collect();
        by_first.sort_unstable_by_key(|&b| BLOCKS[usize::from(b)].1);
        let mut blocks = vec![Block::Barrier; STATE_COUNT as usize];
        for (k, &b) in by_first.iter().enumerate() {
            let (name, first, _, _) = BLOCKS[usize::from(b)];
            let end = by_first
                .get(k + 1)
                .map_or(STATE_COUNT, |&next| BLOCKS[usize::from(next)].1);
            for id in first..end {
                if let Some(info) = state_info(id) {
                    blocks[id as usize] = classify(id, name, info, &BLOCKS[usize::from(b)]);
                }
            }
        }
        Index { by_first, blocks }
    })
}

/// The value of property `property` in state `id`, or `None` when its block has no such
/// property.
#[must_use]
pub fn state_property(id: u32, property: &str) -> Option<&'static str> {
    property_of(block_of_state(id)?, id, property)
}

fn property_of(def: &BlockDef, id: u32, property: &str) -> Option<&'static str> {
    let &(_, first, _, props) = def;
    let mut rest = id - first;
    for &prop in props.iter().rev() {
        let (prop_name, values) = PROPERTIES[usize::from(prop)];
        let values = VALUES[usize::from(values)];
        let digit = rest % values.len() as u32;
        rest /= values.len() as u32;
        if prop_name == property {
            return Some(values[digit as usize]);
        }
    }
    None
}

/// Blocks that are neither walked through nor stood on, whatever their shape: the barrier
/// block, portals (walking into one teleports the agent away), and a piston's moving block.
const BARRIERS: &[&str] = &[
    "barrier",
    "end_gateway",
    "end_portal",
    "iron_door",
    "moving_piston",
    "nether_portal",
];

/// The [`Block`] voxnav stores for block state `id`, or `None` past the table.
///
/// The policy, in order (the first that applies wins):
/// 1. lava is [`Block::Lava`]; other damaging states (fire, magma, cactus, sweet berry bush,
///    lit campfire, wither rose, pointed dripstone) and powder snow (the agent sinks into it
///    and freezes) are [`Block::Hazard`];
/// 2. the barrier block, portals, iron doors and moving pistons are [`Block::Barrier`];
/// 3. climbable states are [`Block::Ladder`];
/// 4. cobweb is [`Block::Cobweb`]; soul sand and honey are [`Block::SlowFloor`];
/// 5. wooden and copper doors, and closed fence gates, are [`Block::Door`]; open trapdoors
///    hang on a side and are walked through ([`Block::Water`] when waterlogged);
/// 6. by collision top: a state without collision, or no higher than 3/16 (carpets, snow of
///    1-2 layers, a closed bottom trapdoor, lily pads), is [`Block::Water`] when wet and
///    [`Block::Air`] otherwise; 4..=15 sixteenths is [`Block::Floor`] at that height; 16 is
///    [`Block::Leaves`] for the leaves of every tree (waterlogged or not) and
///    [`Block::Solid`] otherwise (full cubes, stairs, top slabs); higher (fences, walls,
///    closed fence gates handled above) is [`Block::Fence`].
#[must_use]
pub fn block_for_state(id: u32) -> Option<Block> {
    index().blocks.get(id as usize).copied()
}

/// The collision top at or below which a state is walked through.
const WALK_THROUGH_TOP: u8 = 3;

fn classify(id: u32, name: &str, info: StateInfo, def: &BlockDef) -> Block {
    if info.lava {
        return Block::Lava;
    }
    if info.damaging || name == "powder_snow" {
        return Block::Hazard;
    }
    if BARRIERS.contains(&name) {
        return Block::Barrier;
    }
    if info.climbable {
        return Block::Ladder;
    }
    if name == "cobweb" {
        return Block::Cobweb;
    }
    if info.slowing {
        return Block::SlowFloor;
    }
    let open = || property_of(def, id, "open") == Some("true");
    if info.openable {
        if name.ends_with("_door") || (name.ends_with("_fence_gate") && !open()) {
            return Block::Door;
        }
        if name.ends_with("_trapdoor") && open() {
            return if info.water { Block::Water } else { Block::Air };
        }
    }
    if name.ends_with("_leaves") && info.collision_top == 16 {
        return Block::Leaves;
    }
    match info.collision_top {
        top if top <= WALK_THROUGH_TOP => {
            if info.water {
                Block::Water
            } else {
                Block::Air
            }
        }
        top @ 4..=15 => Block::Floor(top),
        16 => Block::Solid,
        _ => Block::Fence,
    }
}
