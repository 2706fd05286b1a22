//! Body content: what processing a body gives.
//!
//! Spec: spec.md § Schema-driven Processing

use crate::value::Value;
use std::collections::BTreeMap;

/// What processing a body gave: its attributes evaluated, its blocks with
/// their own bodies processed, and, under partial processing, the
/// remaining body processed.
///
/// Spec: spec.md § Schema-driven Processing ("_body content_, which
/// consists of an _attribute map_ and a _block sequence_")
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BodyContent {
    pub attributes: BTreeMap<String, Value>,
    pub blocks: Vec<ContentBlock>,
    pub remain: Option<Box<BodyContent>>,
}

/// One block of a block sequence: "a block _type name_, the sequence of
/// _labels_ specified for the block, and the body object".
///
/// Spec: spec.md § Schema-driven Processing
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ContentBlock {
    pub type_name: String,
    pub labels: Vec<String>,
    pub body: BodyContent,
}

/// A body as written nests as deep as its source's blocks, so dropping one
/// must not recurse: the blocks and remaining bodies of every level are
/// moved onto one heap stack and dropped there, each left without either.
impl Drop for BodyContent {
    fn drop(&mut self) {
        if self.remain.is_none() && self.blocks.iter().all(ContentBlock::is_flat) {
            return;
        }
        let mut bodies: Vec<BodyContent> = Vec::new();
        let take = |body: &mut BodyContent, bodies: &mut Vec<BodyContent>| {
            bodies.extend(body.blocks.iter_mut().map(|b| std::mem::take(&mut b.body)));
            bodies.extend(body.remain.take().map(|remain| *remain));
        };
        take(self, &mut bodies);
        while let Some(mut body) = bodies.pop() {
            take(&mut body, &mut bodies);
        }
    }
}

impl ContentBlock {
    /// Whether the block's body holds no block and no remaining body.
    fn is_flat(&self) -> bool {
        self.body.blocks.is_empty() && self.body.remain.is_none()
    }
}
