//! The map of revisions: which columns move which revision, and which kept values read them.
