console.log("bench: not written yet");
