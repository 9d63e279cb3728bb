//! Memory and time bombs in inputs (issue 26 items 6 to 13): each hostile input is refused
//! quickly with a typed error, or loaded reading and holding only what it needs; ordinary
//! inputs still load.

use voxnav::{DenseWorld, Error, IVec3, parse_movingai_3dmap};

/// Issue 26 item 6: the 21-byte map `voxel 46340 1 46340` holds 2^31 cells, under the old cell
/// cap, but one cell of height costs a whole 64-bit word per column: 16 GiB. It is refused
/// before anything is allocated, naming the bytes; a normal map still loads.
#[test]
fn a_flat_3dmap_header_asking_for_gigabytes_is_refused() {
    let reproducer = "voxel 46340 1 46340\n";
    assert_eq!(reproducer.len(), 20);
    match parse_movingai_3dmap(reproducer) {
        Err(Error::Parse {
            line: 1, message, ..
        }) => assert!(message.contains("bytes"), "{message}"),
        other => panic!("expected a parse error, got {other:?}"),
    }
    assert!(DenseWorld::new(IVec3::new(46_340, 1, 46_340)).is_err());
    let world = parse_movingai_3dmap("voxel 300 1 300\n1 0 1\n").unwrap();
    assert_eq!(world.free_cells(), 300 * 300 - 1);
    let world = parse_movingai_3dmap(
        &std::fs::read_to_string("tests/data/movingai3d/Simple.3dmap").unwrap(),
    )
    .unwrap();
    assert!(world.free_cells() > 0);
}
