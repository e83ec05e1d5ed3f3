import LessonsKit

print("Core Data workbook \(LessonsKit.version): lessons are on their way.")
