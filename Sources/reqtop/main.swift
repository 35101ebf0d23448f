print("reqtop")
