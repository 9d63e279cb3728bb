//! The text formats' parse errors: each names its line and column, in words. The robot
//! grid and Moving AI 2D formats are checked with their planners in `tests/grid2d.rs`.

mod support;

use support::parse_error;
use voxnav::world::{parse_movingai_3dmap, parse_movingai_3dscen, parse_text_world};

#[test]
fn text_world_errors_name_line_and_column() {
    // (text, line, column where it is exact, words the message holds)
    let cases = [
        ("voxnav-world 2\n", 1, Some(1), ""),
        ("voxnav-world 1\nsize 3 x 2\n", 2, Some(8), ""),
        (
            "voxnav-world 1\nsize 3 1 1\nlayer 0\n#Z#\n",
            4,
            Some(2),
            "unknown block `Z`",
        ),
        (
            "voxnav-world 1\nsize 3 1 1\nlayer 0\n####\n",
            4,
            Some(4),
            "",
        ),
        ("voxnav-world 1\nsize 3 1 1\nlayer 0\n##\n", 4, Some(3), ""),
        (
            "voxnav-world 1\nsize 3 1 2\nlayer 0\n###\n",
            5,
            None,
            "end of the file",
        ),
        (
            "voxnav-world 1\nsize 1 2 1\nlayer 0\n#\nlayer 2\n.\n",
            5,
            None,
            "",
        ),
        (
            "voxnav-world 1\nsize 1 1 1\nlayer 0\n#\n\nextra\n",
            6,
            None,
            "",
        ),
        ("voxnav-world 1\nsize 100000 1 1\n", 2, None, ""),
        ("", 1, None, ""),
    ];
    for (text, line, column, words) in cases {
        let (l, c, m) = parse_error(parse_text_world(text));
        assert_eq!(l, line, "{text:?}: {m}");
        if let Some(column) = column {
            assert_eq!(c, column, "{text:?}: {m}");
        }
        assert!(m.contains(words), "{text:?}: {m}");
    }
    // A size line one number short points past its start.
    let (l, c, _) = parse_error(parse_text_world("voxnav-world 1\nsize 3 2\n"));
    assert_eq!(l, 2);
    assert!(c > 1);
}

#[test]
fn malformed_3d_maps_are_errors_with_lines() {
    assert_eq!(parse_error(parse_movingai_3dmap("")).0, 1);
    assert_eq!(parse_error(parse_movingai_3dmap("voxels 1 1 1\n")).1, 1);
    assert_eq!(parse_error(parse_movingai_3dmap("voxel 1 1\n")).0, 1);
    assert_eq!(parse_error(parse_movingai_3dmap("voxel 2 2 2\n0 0\n")).0, 2);
    let (line, column, _) = parse_error(parse_movingai_3dmap("voxel 2 2 2\n0 0 0\n0 x 1\n"));
    assert_eq!((line, column), (3, 3));
    let (line, _, message) = parse_error(parse_movingai_3dmap("voxel 2 2 2\n\n2 0 0\n"));
    assert_eq!(line, 3);
    assert!(message.contains("outside"), "{message}");
    assert_eq!(parse_error(parse_movingai_3dmap("voxel 2 -2 2\n")).0, 1);
    let (_, _, message) = parse_error(parse_movingai_3dmap("voxel 1 1 1\n0 0 0 0\n"));
    assert!(message.contains("unexpected"), "{message}");
}

#[test]
fn a_huge_3d_map_size_fails_fast() {
    let (line, _, message) = parse_error(parse_movingai_3dmap(
        "voxel 2000000000 2000000000 2000000000\n",
    ));
    assert_eq!(line, 1);
    assert!(message.contains("larger"), "{message}");
}

#[test]
fn long_words_in_a_3d_map_are_cut_to_40_characters() {
    let long = "9".repeat(500);
    let (_, _, message) = parse_error(parse_movingai_3dmap(&format!("voxel 2 2 2\n{long} 0 0\n")));
    assert!(message.len() < 120, "{message}");
    assert!(message.contains("..."), "{message}");
}

#[test]
fn malformed_3d_scenarios_are_errors_with_lines() {
    assert_eq!(parse_error(parse_movingai_3dscen("version 2\nm\n")).0, 1);
    assert_eq!(parse_error(parse_movingai_3dscen("version 1\n")).0, 2);
    let (line, column, _) = parse_error(parse_movingai_3dscen("version 1\nm\n1 2 3 4 5 6 -7 1\n"));
    assert_eq!((line, column), (3, 13));
    assert_eq!(
        parse_error(parse_movingai_3dscen("version 1\nm\n1 2 3 4 5 6 7\n")).0,
        3
    );
    assert_eq!(
        parse_error(parse_movingai_3dscen("version 1\nm\n1 2 3 4 5 6 NaN 1\n")).1,
        13
    );
}
