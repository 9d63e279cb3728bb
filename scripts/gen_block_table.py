#!/usr/bin/env python3
"""Generates src/world/anvil/block_table.rs and src/moves/mob_table.rs from the npm package `minecraft-data` (MIT).

Usage: python3 scripts/gen_block_table.py [--package-version V] [--game-version G] [--data DIR]

Without --data it installs `minecraft-data@V` into a temporary folder with npm (the npm
registry must be reachable), reads the newest Java Edition ("pc") version that has its own
`blocks.json` and `blockCollisionShapes.json` (or --game-version), and writes the table. The
output is committed, so building the crate needs no network.

What the table holds, one row per block state (state ids as minecraft-data numbers them:
each block's `minStateId` plus a mixed-radix number over its properties, the last property
varying fastest, values in the order listed, booleans `true` before `false`):

- collision top in sixteenths of a block: the highest point of the state's collision boxes,
  rounded up (0 no collision, 16 a full block's top, 24 a fence or wall);
- full cube: the collision shape is exactly the unit cube;
- water: water and bubble columns, the always-wet plants (kelp, seagrass), and every state
  with `waterlogged=true`;
- lava;
- climbable: Minecraft's `climbable` tag (ladder, vines, scaffolding, cave vines);
- openable by hand: wooden and copper doors and trapdoors, fence gates (iron doors and iron
  trapdoors need redstone and are not);
- slowing: soul sand, honey block, cobweb, powder snow;
- damaging: fire, soul fire, lava, magma block, cactus, sweet berry bush, lit campfires,
  wither rose, pointed dripstone.

Row bits (each state stores an index into the distinct rows): 0-4 collision top, 5 full cube, 6 water, 7 lava, 8 climbable, 9 openable,
10 slowing, 11 damaging. The Rust side (src/world/anvil/table.rs) decodes them.

The mob table (src/moves/mob_table.rs, read by src/moves/profile.rs) has one row per mob type
of the same game version's `entities.json`: every entity whose `type` is `animal`, `hostile`,
`mob`, `passive`, `ambient` or `water_creature` (not players, vehicles, projectiles, display or armour-stand
entities). From the data: the name, the category, and the hitbox width and height in blocks,
with both rounded up to whole blocks. By hand, below, since minecraft-data does not record
them: how each mob moves and the abilities that change its routes. Each list says how it was
decided.
"""

import argparse
import json
import math
import os
import subprocess
import sys
import tempfile

DEFAULT_PACKAGE_VERSION = "3.117.0"
OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "src", "world", "anvil", "block_table.rs")

CLIMBABLE = {
    "ladder", "vine", "scaffolding", "weeping_vines", "weeping_vines_plant",
    "twisting_vines", "twisting_vines_plant", "cave_vines", "cave_vines_plant",
}
ALWAYS_WET = {"water", "bubble_column", "kelp", "kelp_plant", "seagrass", "tall_seagrass"}
SLOWING = {"soul_sand", "honey_block", "cobweb", "powder_snow"}
DAMAGING = {
    "fire", "soul_fire", "lava", "magma_block", "cactus", "sweet_berry_bush",
    "wither_rose", "pointed_dripstone",
}
# Campfires burn only when lit.
DAMAGING_WHEN_LIT = {"campfire", "soul_campfire"}


# Mob types, by how they move. Every mob type not listed here walks and floats at the surface
# of water (the game gives land mobs a goal that keeps them afloat, so they swim across
# rivers and lakes).
# Fliers: mobs that fly freely (Minecraft gives them a flying move control).
FLIERS = {
    "allay", "bat", "bee", "blaze", "ender_dragon", "ghast", "happy_ghast", "parrot",
    "phantom", "vex", "wither",
}
# Swimmers: aquatic mobs that leave the water only by accident (they suffocate or flop
# about on land).
SWIMMERS = {
    "cod", "salmon", "tropical_fish", "pufferfish", "squid", "glow_squid", "dolphin",
    "guardian", "elder_guardian", "tadpole", "nautilus", "zombie_nautilus",
}
# Walkers that sink rather than float (they wade through shallow water and go round deep
# water): the iron golem is too heavy to float.
WADERS = {"iron_golem"}
# Walkers that never enter water: water hurts them (endermen, blazes, snow golems) or they
# take damage out of lava and freeze in water (striders).
AVOID_WATER = {"enderman", "blaze", "snow_golem", "strider"}
# Mobs that open wooden doors and fence gates: villagers and piglins (and piglin brutes),
# whose navigation the game sets to open doors. Zombies break doors only on hard difficulty,
# which is not opening them.
OPENS_DOORS = {"villager", "piglin", "piglin_brute"}
MOB_TYPES = {"animal", "hostile", "mob", "passive", "ambient", "water_creature"}
MOB_OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "src", "moves", "mob_table.rs")


def openable(name):
    if name in ("iron_door", "iron_trapdoor"):
        return False
    return name.endswith("_door") or name.endswith("_trapdoor") or name.endswith("_fence_gate")


def version_key(version):
    parts = []
    for piece in version.replace("-", ".").split("."):
        parts.append(int(piece) if piece.isdigit() else -1)
    return parts


def install(package_version, workdir):
    subprocess.run(
        ["npm", "install", "--prefix", workdir, "--no-audit", "--no-fund", "--silent",
         f"minecraft-data@{package_version}"],
        check=True,
    )
    return os.path.join(workdir, "node_modules", "minecraft-data")


def load(package_dir, game_version):
    data = os.path.join(package_dir, "minecraft-data", "data")
    with open(os.path.join(data, "dataPaths.json")) as f:
        paths = json.load(f)["pc"]
    if game_version is None:
        # The newest release whose block data is its own (not borrowed from an older version).
        own = [
            v for v, p in paths.items()
            if p.get("blocks") == f"pc/{v}" and p.get("blockCollisionShapes") == f"pc/{v}"
            and all(c.isdigit() or c == "." for c in v)
        ]
        game_version = max(own, key=version_key)
    p = paths[game_version]
    with open(os.path.join(data, p["blocks"], "blocks.json")) as f:
        blocks = json.load(f)
    with open(os.path.join(data, p["blockCollisionShapes"], "blockCollisionShapes.json")) as f:
        shapes = json.load(f)
    with open(os.path.join(data, p["entities"], "entities.json")) as f:
        entities = json.load(f)
    with open(os.path.join(data, "pc", "common", "protocolVersions.json")) as f:
        protocols = json.load(f)
    data_version = next(
        (e["dataVersion"] for e in protocols if e["minecraftVersion"] == game_version), None
    )
    with open(os.path.join(package_dir, "package.json")) as f:
        package_version = json.load(f)["version"]
    return game_version, data_version, package_version, blocks, shapes, entities, p["entities"]


def values_of(state):
    if state["type"] == "bool":
        return ["true", "false"]
    return [str(v) for v in state["values"]]


def state_rows(block, shapes):
    """One (row bits) per state of `block`, in state id order."""
    name = block["name"]
    props = block.get("states", [])
    lists = [values_of(s) for s in props]
    count = block["maxStateId"] - block["minStateId"] + 1
    assert count == math.prod(len(v) for v in lists), name
    shape_ids = shapes["blocks"].get(name, 0)
    if not isinstance(shape_ids, list):
        shape_ids = [shape_ids] * count
    assert len(shape_ids) == count, name
    rows = []
    for offset in range(count):
        # Mixed radix, last property fastest.
        rest, chosen = offset, {}
        for prop, values in reversed(list(zip(props, lists))):
            chosen[prop["name"]] = values[rest % len(values)]
            rest //= len(values)
        boxes = shapes["shapes"][str(shape_ids[offset])]
        top = max((b[4] for b in boxes), default=0.0)
        top16 = min(24, math.ceil(top * 16 - 1e-9))
        full = len(boxes) == 1 and boxes[0] == [0.0, 0.0, 0.0, 1.0, 1.0, 1.0]
        water = name in ALWAYS_WET or chosen.get("waterlogged") == "true"
        damaging = name in DAMAGING or (name in DAMAGING_WHEN_LIT and chosen.get("lit") == "true")
        bits = top16
        bits |= full << 5
        bits |= water << 6
        bits |= (name == "lava") << 7
        bits |= (name in CLIMBABLE) << 8
        bits |= openable(name) << 9
        bits |= (name in SLOWING) << 10
        bits |= damaging << 11
        rows.append(bits)
    return rows


def generate(game_version, data_version, package_version, blocks, shapes):
    blocks = sorted(blocks, key=lambda b: b["minStateId"])
    value_lists, value_index = [], {}
    properties, property_index = [], {}
    defs = []
    rows, row_index = [], {}
    codes = []  # one character per state id
    for block in blocks:
        prop_ids = []
        for state in block.get("states", []):
            values = tuple(values_of(state))
            if values not in value_index:
                value_index[values] = len(value_lists)
                value_lists.append(values)
            key = (state["name"], value_index[values])
            if key not in property_index:
                property_index[key] = len(properties)
                properties.append(key)
            prop_ids.append(property_index[key])
        defs.append((block["name"], block["minStateId"], block["defaultState"], prop_ids))
        assert block["minStateId"] == len(codes), block["name"]
        for bits in state_rows(block, shapes):
            if bits not in row_index:
                row_index[bits] = len(rows)
                rows.append(bits)
            codes.append(chr(ord("#") + row_index[bits]))
    assert ord("#") + len(rows) <= ord("~"), "too many distinct rows for one printable byte"
    codes = "".join(codes)
    state_count = blocks[-1]["maxStateId"] + 1
    defs.sort(key=lambda d: d[0])

    out = []
    out.append("// @generated by scripts/gen_block_table.py; do not edit by hand.")
    out.append(f"//! The block-state table of Minecraft Java Edition {game_version} (data version "
               f"{data_version}),")
    out.append(f"//! from the npm package `minecraft-data` {package_version} (MIT licence):")
    out.append(f"//! `data/pc/{game_version}/blocks.json` and `blockCollisionShapes.json`.")
    out.append("//! Regenerate with `python3 scripts/gen_block_table.py`; the script's docstring")
    out.append("//! says what each column means.")
    out.append("")
    out.append("use super::table::BlockDef;")
    out.append("")
    out.append("/// The `minecraft-data` package version the table came from.")
    out.append(f"pub(super) const PACKAGE_VERSION: &str = \"{package_version}\";")
    out.append("/// The game version whose block data the table holds.")
    out.append(f"pub(super) const GAME_VERSION: &str = \"{game_version}\";")
    out.append("/// That game version's data version (the `DataVersion` its chunks carry).")
    out.append(f"pub(super) const DATA_VERSION: i32 = {data_version};")
    out.append("/// The number of block states.")
    out.append(f"pub(super) const STATE_COUNT: u32 = {state_count};")
    out.append("")
    out.append("/// Property value lists, in state-numbering order.")
    out.append("pub(super) const VALUES: &[&[&str]] = &[")
    for values in value_lists:
        out.append("    &[" + ", ".join(f"\"{v}\"" for v in values) + "],")
    out.append("];")
    out.append("")
    out.append("/// Properties: (name, index into `VALUES`).")
    out.append("pub(super) const PROPERTIES: &[(&str, u16)] = &[")
    for name, values in properties:
        out.append(f"    (\"{name}\", {values}),")
    out.append("];")
    out.append("")
    out.append("/// Blocks sorted by name: (name without namespace, first state id, default state id,")
    out.append("/// properties as indices into `PROPERTIES`, the fastest-varying last).")
    out.append("pub(super) const BLOCKS: &[BlockDef] = &[")
    for name, first, default, prop_ids in defs:
        out.append(f"    (\"{name}\", {first}, {default}, &[" + ", ".join(map(str, prop_ids)) + "]),")
    out.append("];")
    out.append("")
    out.append("/// The distinct state rows (see the script for the bits).")
    out.append("pub(super) const ROWS: &[u16] = &[")
    out.append("    " + ", ".join(map(str, rows)) + ",")
    out.append("];")
    out.append("")
    out.append("/// One byte per state id: `ROWS[byte - b'#']` is the state's row.")
    out.append("pub(super) const STATE_ROWS: &[u8] = concat!(")
    for start in range(0, len(codes), 96):
        piece = codes[start:start + 96].replace("\\", "\\\\")
        out.append(f"    \"{piece}\",")
    out.append(")")
    out.append(".as_bytes();")
    return "\n".join(out) + "\n", len(rows), len(defs)


def blocks_of(size):
    """A hitbox size rounded up to whole blocks (at least 1)."""
    return max(1, math.ceil(size - 1e-9))


def generate_mobs(game_version, package_version, entities, entities_path):
    mobs = sorted((e for e in entities if e.get("type") in MOB_TYPES), key=lambda e: e["name"])
    names = {e["name"] for e in mobs}
    for listed in (FLIERS, SWIMMERS, WADERS, AVOID_WATER, OPENS_DOORS):
        missing = listed - names
        assert not missing, f"hand-made lists name mob types the data lacks: {missing}"
    out = []
    out.append("// @generated by scripts/gen_block_table.py; do not edit by hand.")
    out.append(f"//! The mob types of Minecraft Java Edition {game_version}, from the npm package")
    out.append(f"//! `minecraft-data` {package_version} (MIT licence): `data/{entities_path}/entities.json`")
    out.append("//! (name, category, hitbox width and height). Movement and abilities come from the")
    out.append("//! hand-made lists in the script, which say how each was decided. Regenerate with")
    out.append("//! `python3 scripts/gen_block_table.py`.")
    out.append("#![allow(")
    out.append("    clippy::unreadable_literal,")
    out.append("    reason = \"hitbox sizes are written with the data's own digits\"")
    out.append(")]")
    out.append("")
    out.append("use super::profile::{MobMovement, MobProfile};")
    out.append("")
    out.append("/// The `minecraft-data` package version the table came from.")
    out.append(f"pub(super) const PACKAGE_VERSION: &str = \"{package_version}\";")
    out.append("/// The game version whose entities the table holds.")
    out.append(f"pub(super) const GAME_VERSION: &str = \"{game_version}\";")
    out.append("")
    out.append("/// One profile per mob type, sorted by name.")
    out.append("pub(super) const MOBS: &[MobProfile] = &[")
    for e in mobs:
        name = e["name"]
        if name in FLIERS:
            movement = "Fly"
        elif name in SWIMMERS:
            movement = "SwimOnly"
        elif name in WADERS or name in AVOID_WATER:
            movement = "Walk"
        else:
            movement = "WalkAndSwim"
        width, height = float(e["width"]), float(e["height"])
        out.append("    MobProfile {")
        out.append(f"        name: \"{name}\",")
        out.append(f"        category: \"{e.get('category', 'UNKNOWN')}\",")
        out.append(f"        hitbox_width: {width!r},")
        out.append(f"        hitbox_height: {height!r},")
        out.append(f"        width: {blocks_of(width)},")
        out.append(f"        height: {blocks_of(height)},")
        out.append(f"        movement: MobMovement::{movement},")
        out.append(f"        opens_doors: {'true' if name in OPENS_DOORS else 'false'},")
        out.append(f"        avoids_water: {'true' if name in AVOID_WATER else 'false'},")
        out.append("    },")
    out.append("];")
    return "\n".join(out) + "\n", len(mobs)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--package-version", default=DEFAULT_PACKAGE_VERSION)
    parser.add_argument("--game-version", default=None)
    parser.add_argument("--data", default=None, help="an installed minecraft-data package folder")
    parser.add_argument("--out", default=OUT)
    parser.add_argument("--mob-out", default=MOB_OUT)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        package_dir = args.data or install(args.package_version, tmp)
        game_version, data_version, package_version, blocks, shapes, entities, entities_path = load(
            package_dir, args.game_version
        )
        text, rows, count = generate(game_version, data_version, package_version, blocks, shapes)
        mob_text, mob_count = generate_mobs(game_version, package_version, entities, entities_path)
    with open(args.out, "w") as f:
        f.write(text)
    with open(args.mob_out, "w") as f:
        f.write(mob_text)
    print(f"{args.mob_out}: {mob_count} mob types", file=sys.stderr)
    print(f"{args.out}: {count} blocks, {rows} distinct rows, {len(text)} bytes "
          f"(minecraft-data {package_version}, pc {game_version}, data version {data_version})",
          file=sys.stderr)


if __name__ == "__main__":
    main()
