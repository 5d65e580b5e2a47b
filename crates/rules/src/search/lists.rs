//! Many short lists of term ids stored end to end in one vector: no list
//! has a header or spare capacity of its own.

#[derive(Default)]
pub struct Lists {
    items: Vec<u32>,
    /// List `i` ends at `ends[i]` (and starts where list `i - 1` ends).
    ends: Vec<usize>,
}

impl Lists {
    pub fn with_capacity(lists: usize) -> Lists {
        Lists {
            items: Vec::new(),
            ends: Vec::with_capacity(lists),
        }
    }

    pub fn push(&mut self, list: &[u32]) {
        self.items.extend_from_slice(list);
        self.ends.push(self.items.len());
    }

    /// List `i` (empty past the end).
    pub fn get(&self, i: usize) -> &[u32] {
        let from = i
            .checked_sub(1)
            .map_or(0, |k| self.ends.get(k).copied().unwrap_or(0));
        let to = self.ends.get(i).copied().unwrap_or(from);
        self.items.get(from..to).unwrap_or(&[])
    }

    pub fn len(&self) -> usize {
        self.ends.len()
    }

    pub fn iter(&self) -> impl Iterator<Item = &[u32]> {
        (0..self.len()).map(|i| self.get(i))
    }

    pub fn shrink_to_fit(&mut self) {
        self.items.shrink_to_fit();
        self.ends.shrink_to_fit();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lists_come_back_as_pushed() {
        let mut l = Lists::with_capacity(3);
        l.push(&[1, 2]);
        l.push(&[]);
        l.push(&[7]);
        assert_eq!(l.len(), 3);
        assert_eq!(l.get(0), &[1, 2]);
        assert_eq!(l.get(1), &[] as &[u32]);
        assert_eq!(l.get(2), &[7]);
        assert_eq!(l.get(3), &[] as &[u32]);
        assert_eq!(
            l.iter().map(<[u32]>::len).collect::<Vec<_>>(),
            vec![2, 0, 1]
        );
    }
}
