print("lesson 15")
