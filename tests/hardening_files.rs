//! Regression tests for issue 14's hardening items on files and messages: parse errors quote
//! little and accept a byte-order mark, loaders read with a cap, the text writer refuses what
//! could not be loaded again, errors are `Clone`, and doc examples use voxnav's re-exports.
//! Extreme values are in `tests/hardening.rs`.

use voxnav::world::formats::{MAX_FILE_BYTES, read_text_file};
use voxnav::world::{
    load_movingai_3dmap, load_movingai_3dscen, load_movingai_map, load_movingai_scen,
    load_robot_grid, load_text_world, parse_movingai_3dmap, parse_movingai_3dscen,
    parse_movingai_map, parse_movingai_scen, parse_robot_grid, parse_text_world, to_text_world,
};
use voxnav::{Block, ChunkedWorld, Error, IVec3, VoxelWorld};

// Item 8: parse errors quote at most 40 characters; a byte-order mark is accepted.

#[test]
fn parse_errors_never_echo_a_whole_line() {
    let long = "x".repeat(5 << 20);
    let texts = [
        format!("{long}\n"),
        format!("voxnav-world 1\n{long}\n"),
        format!("voxnav-world 1\nsize {long} 1 1\n"),
        format!("voxnav-world 1\nsize 1 1 1 {long}\n"),
        format!("voxnav-world 1\nsize 1 1 1\n{long}\n"),
        format!("voxnav-world 1\nsize 1 1 1\nlayer 0\n.\n{long}\n"),
        format!("voxnav-world 1\nsize 1 1 1\nlayer 0\n{long}\n"),
    ];
    for text in &texts {
        let err = parse_text_world(text).unwrap_err();
        assert!(
            err.to_string().len() < 200,
            "{} bytes",
            err.to_string().len()
        );
    }
    for result in [
        parse_robot_grid(&format!("{long} 1\n")).map(|_| ()),
        parse_robot_grid(&format!("1 1\n{long}\n")).map(|_| ()),
        parse_movingai_map(&format!("type {long}\n")).map(|_| ()),
        parse_movingai_map(&format!("type octile\nheight 1\nwidth 1\nmap\n{long}\n")).map(|_| ()),
        parse_movingai_scen(&format!("version {long}\n")).map(|_| ()),
        parse_movingai_scen(&format!("version 1\n{long}\n")).map(|_| ()),
        parse_movingai_3dmap(&format!("{long}\n")).map(|_| ()),
        parse_movingai_3dmap(&format!("voxel 2 2 2\n{long}\n")).map(|_| ()),
        parse_movingai_3dscen(&format!("{long}\n")).map(|_| ()),
        parse_movingai_3dscen(&format!("version 1\na\n{long}\n")).map(|_| ()),
    ] {
        let err = result.unwrap_err();
        assert!(
            err.to_string().len() < 200,
            "{} bytes",
            err.to_string().len()
        );
    }
}

#[test]
fn every_parser_accepts_a_byte_order_mark() {
    const BOM: &str = "\u{feff}";
    let world =
        parse_text_world(&format!("{BOM}voxnav-world 1\nsize 2 1 1\nlayer 0\n#.\n")).unwrap();
    assert_eq!(world.get(IVec3::ZERO), Some(Block::Solid));
    let grid = parse_robot_grid(&format!("{BOM}2 1\n0 1\n")).unwrap();
    assert_eq!((grid.width(), grid.height()), (2, 1));
    let map =
        parse_movingai_map(&format!("{BOM}type octile\nheight 1\nwidth 2\nmap\n.@\n")).unwrap();
    assert_eq!(map.free_cells(), 1);
    let scen =
        parse_movingai_scen(&format!("{BOM}version 1\n0\ta.map\t2\t1\t0\t0\t0\t0\t0\n")).unwrap();
    assert_eq!(scen.len(), 1);
    let voxels = parse_movingai_3dmap(&format!("{BOM}voxel 2 2 2\n0 0 0\n")).unwrap();
    assert!(!voxels.is_passable(IVec3::ZERO));
    let problems =
        parse_movingai_3dscen(&format!("{BOM}version 1\na.3dmap\n0 0 0 1 1 1 1.7 1.7\n")).unwrap();
    assert_eq!(problems.scenarios.len(), 1);
}

// Items 7 and 9: loaders read with a cap; the text writer refuses what could not be loaded.

/// A fresh temporary folder `folder` holding a sparse file `name` of `len` bytes (which costs
/// no disk space); returns the folder, for the caller to remove, and the file.
fn sparse_file(folder: &str, name: &str, len: u64) -> (std::path::PathBuf, std::path::PathBuf) {
    let dir = std::env::temp_dir().join(format!("{folder}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join(name);
    std::fs::File::create(&file).unwrap().set_len(len).unwrap();
    (dir, file)
}

#[test]
fn loaders_refuse_files_over_the_cap() {
    // A sparse file one byte over the cap: refused by its length, without reading it.
    let (dir, big) = sparse_file("voxnav-hardening", "big.txt", MAX_FILE_BYTES + 1);
    for err in [
        load_text_world(&big).unwrap_err(),
        load_robot_grid(&big).unwrap_err(),
        load_movingai_map(&big).unwrap_err(),
        load_movingai_scen(&big).unwrap_err(),
        load_movingai_3dmap(&big).unwrap_err(),
        load_movingai_3dscen(&big).unwrap_err(),
    ] {
        assert!(
            matches!(err, Error::FileTooLarge { limit, .. } if limit == MAX_FILE_BYTES),
            "{err:?}"
        );
        assert!(err.to_string().contains("big.txt"), "{err}");
    }
    // A file within the cap loads.
    let small = dir.join("small.txt");
    std::fs::write(&small, "\u{feff}2 1\n0 0\n").unwrap();
    assert_eq!(load_robot_grid(&small).unwrap().free_cells(), 2);
    assert!(matches!(
        read_text_file(&small, 3),
        Err(Error::FileTooLarge { limit: 3, .. })
    ));
    std::fs::write(&small, [0xff, 0xfe, b'1']).unwrap();
    let err = read_text_file(&small, 100).unwrap_err();
    assert!(err.to_string().contains("not UTF-8"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
    // A device that never ends is cut at the limit.
    if std::path::Path::new("/dev/zero").exists() {
        assert!(matches!(
            read_text_file("/dev/zero", 4096),
            Err(Error::FileTooLarge { limit: 4096, .. })
        ));
    }
}

#[test]
fn to_text_world_refuses_a_world_too_large_to_load_again() {
    let world = ChunkedWorld::with_size(IVec3::new(65536, 2048, 65536)).unwrap();
    let err = to_text_world(&world).unwrap_err();
    assert!(
        matches!(err, Error::WorldTooLarge { limit, bytes } if limit == MAX_FILE_BYTES && bytes > limit),
        "{err:?}"
    );
}

// Item 13: errors are Clone; doc examples use voxnav's own re-exports.

#[test]
fn errors_are_clone() {
    let err = load_text_world("/nonexistent/voxnav/world.txt").unwrap_err();
    let copy = err.clone();
    assert_eq!(copy.to_string(), err.to_string());
    assert!(std::error::Error::source(&copy).is_some());
}

#[test]
fn doc_examples_use_voxnav_reexports_not_glam() {
    fn visit(dir: &std::path::Path, found: &mut Vec<String>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                visit(&path, found);
            } else if path.extension().is_some_and(|e| e == "rs") {
                let text = std::fs::read_to_string(&path).unwrap();
                for (i, line) in text.lines().enumerate() {
                    let doc = line.trim_start();
                    if (doc.starts_with("///") || doc.starts_with("//!")) && doc.contains("glam::")
                    {
                        found.push(format!("{}:{}: {line}", path.display(), i + 1));
                    }
                }
            }
        }
    }
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut found = Vec::new();
    visit(&root.join("src"), &mut found);
    let readme = std::fs::read_to_string(root.join("README.md")).unwrap();
    let mut in_rust = false;
    for (i, line) in readme.lines().enumerate() {
        if line.starts_with("```") {
            in_rust = line.starts_with("```rust");
        } else if in_rust && line.contains("glam::") {
            found.push(format!("README.md:{}: {line}", i + 1));
        }
    }
    assert!(
        found.is_empty(),
        "doc examples must compile without a glam dependency (use voxnav::IVec3):\n{}",
        found.join("\n")
    );
}

#[cfg(feature = "anvil")]
#[test]
fn a_region_file_over_the_cap_is_refused_unread() {
    use voxnav::anvil::{MAX_REGION_BYTES, load_world};
    let (dir, region) = sparse_file("voxnav-hardening-mca", "r.0.0.mca", MAX_REGION_BYTES + 1);
    let err = load_world(&region).unwrap_err();
    assert!(
        matches!(err, Error::FileTooLarge { limit, .. } if limit == MAX_REGION_BYTES),
        "{err:?}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
