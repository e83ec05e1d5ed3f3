print("lesson 16")
