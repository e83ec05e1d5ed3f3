extension TextStyle {
    /// `text` in this style: with escape codes when `colors` is on (a terminal), as it is otherwise.
    public func paint(_ text: String, colors: Bool) -> String {
        StyledText(text, self).rendered(colors: colors)
    }
}
