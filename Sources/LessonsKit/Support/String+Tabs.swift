extension String {
    /// Tabs become spaces up to the next multiple of four, so code lines up in every terminal.
    func replacingTabs() -> String {
        guard contains("\t") else { return self }
        var result = "", column = 0
        for character in self {
            if character == "\t" {
                let spaces = 4 - column % 4
                result += String(repeating: " ", count: spaces)
                column += spaces
            } else {
                result.append(character)
                column = character == "\n" ? 0 : column + 1
            }
        }
        return result
    }
}
