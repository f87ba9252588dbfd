print("gesture-bridge")
