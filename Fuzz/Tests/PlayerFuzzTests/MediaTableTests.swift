import PlayerFuzz
import PlayerState
import Testing

@Suite struct MediaTableTests {
  @Test func itemsIssuedInOrderAreFoundAtTheirOffset() {
    var table = MediaTable()
    table[ItemID(1)] = "A"
    table[ItemID(2)] = "B"
    table[ItemID(3)] = "A"
    #expect(table[ItemID(1)] == "A")
    #expect(table[ItemID(2)] == "B")
    #expect(table[ItemID(3)] == "A")
    #expect(table[ItemID(0)] == nil)
    #expect(table[ItemID(4)] == nil)
    #expect(table.count == 3)
  }

  @Test func idsWithGapsAndNearExhaustionAreFound() {
    var table = MediaTable()
    table[ItemID(UInt32.max - 1)] = "B"
    table[ItemID(7)] = "A"
    table[ItemID(UInt32.max)] = "C"
    table[ItemID(9)] = "D"
    #expect(table[ItemID(7)] == "A")
    #expect(table[ItemID(9)] == "D")
    #expect(table[ItemID(8)] == nil)
    #expect(table[ItemID(UInt32.max - 1)] == "B")
    #expect(table[ItemID(UInt32.max)] == "C")
    #expect(table.map(\.key.rawValue) == [7, 9, UInt32.max - 1, UInt32.max])
    #expect(table.map(\.value) == ["A", "D", "B", "C"])
  }

  @Test func anItemIsReplacedOrForgotten() {
    var table = MediaTable()
    table[ItemID(1)] = "A"
    table[ItemID(2)] = "B"
    table[ItemID(1)] = "C"
    table[ItemID(2)] = nil
    table[ItemID(5)] = nil
    #expect(table[ItemID(1)] == "C")
    #expect(table[ItemID(2)] == nil)
    #expect(table.dictionary == [ItemID(1): "C"])
  }

  @Test func theModelRecordsEachIssuedItem() {
    var model = ContractModel()
    var commands: [EngineCommand] = []
    model.apply(.user(.replaceQueue(["A", "B"])), commands: &commands)
    model.apply(.user(.append(["A"])), commands: &commands)
    #expect(model.media.dictionary == [ItemID(1): "A", ItemID(2): "B", ItemID(3): "A"])
  }
}
