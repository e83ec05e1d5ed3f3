/// Thrown inside a kata to end it once its failure has been reported, so that one problem gives one message.
struct KataStop: Error {}
