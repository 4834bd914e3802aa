//! The checked-in `web/schema.graphql` (the web app's types are generated from it) must match the
//! server's schema: run `insights-cli schema` after changing the API.

#[test]
fn the_checked_in_schema_is_up_to_date() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/web/schema.graphql");
    let checked_in = std::fs::read_to_string(path).unwrap_or_default();
    assert!(
        checked_in == insights::graphql::sdl(),
        "web/schema.graphql is out of date: run `make schema` (insights-cli schema) and commit it"
    );
}

#[test]
fn the_readme_lists_every_setting() {
    let readme = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).unwrap();
    for env in insights::Config::env_vars() {
        assert!(readme.contains(&format!("`{env}`")), "README.md's configuration table lacks {env}: run `make readme-config`");
    }
}
